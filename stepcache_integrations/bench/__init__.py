"""The benchmark: workload, backends (local llama.cpp, OpenAI-compatible, SIMULATED), modes.

Submodules are imported explicitly (``from stepcache_integrations.bench.workload import ...``)
so that importing the package does not pull in the local server or plotting code.
"""
