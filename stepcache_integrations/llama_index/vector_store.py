"""A LlamaIndex vector store over :class:`~stepcache_integrations.core.faiss_index.FaissIndex`.

Named ``StepCacheFaissVectorStore`` so it is not confused with LlamaIndex's own
``FaissVectorStore`` (llama-index-vector-stores-faiss, which stores no text). This one keeps the
nodes (``stores_text = True``), so ``VectorStoreIndex`` needs no separate docstore for them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from llama_index.core.bridge.pydantic import PrivateAttr
from llama_index.core.schema import BaseNode
from llama_index.core.vector_stores.types import (
    BasePydanticVectorStore,
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
    VectorStoreQueryResult,
)

from stepcache_integrations.core.faiss_index import FaissIndex

__all__ = ["SUPPORTED_OPERATORS", "StepCacheFaissVectorStore", "compile_filters"]

MetadataPredicate = Callable[[Mapping[str, Any]], bool]

SUPPORTED_OPERATORS = frozenset(
    {
        FilterOperator.EQ,
        FilterOperator.NE,
        FilterOperator.GT,
        FilterOperator.GTE,
        FilterOperator.LT,
        FilterOperator.LTE,
        FilterOperator.IN,
        FilterOperator.NIN,
    }
)


def _compare(operator: FilterOperator, actual: Any, expected: Any) -> bool:
    # A missing key matches only the negative operators, as in LlamaIndex's own stores.
    if actual is None:
        return operator in (FilterOperator.NE, FilterOperator.NIN)
    try:
        if operator == FilterOperator.EQ:
            return bool(actual == expected)
        if operator == FilterOperator.NE:
            return bool(actual != expected)
        if operator == FilterOperator.GT:
            return bool(actual > expected)
        if operator == FilterOperator.GTE:
            return bool(actual >= expected)
        if operator == FilterOperator.LT:
            return bool(actual < expected)
        if operator == FilterOperator.LTE:
            return bool(actual <= expected)
        if operator == FilterOperator.IN:
            return actual in expected
        return actual not in expected  # NIN: the only operator left after validation
    except TypeError:
        # "3" > 1 and friends: values of incomparable types simply do not match.
        return False


def _compile_one(item: MetadataFilter | MetadataFilters) -> MetadataPredicate:
    if isinstance(item, MetadataFilters):
        return compile_filters(item)
    if item.operator not in SUPPORTED_OPERATORS:
        supported = ", ".join(sorted(op.name for op in SUPPORTED_OPERATORS))
        raise NotImplementedError(
            f"StepCacheFaissVectorStore does not support filter operator "
            f"{item.operator.name} ({item.operator.value!r}) on key {item.key!r}; "
            f"supported operators: {supported}"
        )
    if item.operator in (FilterOperator.IN, FilterOperator.NIN) and not isinstance(
        item.value, list
    ):
        raise ValueError(f"filter {item.operator.name} on {item.key!r} needs a list value")
    operator, key, expected = item.operator, item.key, item.value
    return lambda metadata: _compare(operator, metadata.get(key), expected)


def compile_filters(filters: MetadataFilters) -> MetadataPredicate:
    """Turn ``MetadataFilters`` into a predicate on a node's metadata.

    Supports the operators in ``SUPPORTED_OPERATORS``, the conditions AND, OR and NOT (none of
    the filters matches) and nested ``MetadataFilters``; anything else raises
    ``NotImplementedError`` before any search is done.

    Example:
        >>> from llama_index.core.vector_stores.types import MetadataFilter
        >>> match = compile_filters(MetadataFilters(filters=[MetadataFilter(key="k", value=1)]))
        >>> match({"k": 1}), match({"k": 2})
        (True, False)
    """
    parts = [_compile_one(item) for item in filters.filters]
    condition = filters.condition or FilterCondition.AND
    if condition == FilterCondition.AND:
        return lambda metadata: all(part(metadata) for part in parts)
    if condition == FilterCondition.OR:
        return lambda metadata: any(part(metadata) for part in parts)
    if condition == FilterCondition.NOT:
        return lambda metadata: not any(part(metadata) for part in parts)
    raise NotImplementedError(f"unsupported filter condition {condition!r}")


class StepCacheFaissVectorStore(BasePydanticVectorStore):
    """In-memory FAISS vector store for LlamaIndex with cosine similarities and filters.

    Example:
        >>> from llama_index.core.schema import TextNode
        >>> store = StepCacheFaissVectorStore()
        >>> store.add([TextNode(id_="n1", text="x = 5", embedding=[1.0, 0.0])])
        ['n1']
        >>> store.query(VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=1)).ids
        ['n1']
    """

    stores_text: bool = True
    is_embedding_query: bool = True

    _index: FaissIndex | None = PrivateAttr(default=None)
    _nodes: dict[str, BaseNode] = PrivateAttr(default_factory=dict)
    # Guards ``_index`` and ``_nodes`` together; always taken before the index's own lock.
    _lock: threading.RLock = PrivateAttr(default_factory=threading.RLock)

    @classmethod
    def class_name(cls) -> str:
        """The serialisation name of this component."""
        return "StepCacheFaissVectorStore"

    # Deliberately no ``__len__``: LlamaIndex tests stores for truth (``if vector_store:`` in
    # ``StorageContext.from_defaults``), and an empty store that is falsy gets silently
    # replaced by a ``SimpleVectorStore``. Count with ``len(store.get_nodes())``.

    @property
    def client(self) -> FaissIndex | None:
        """The underlying index (``None`` until the first node is added)."""
        return self._index

    # -- writing ---------------------------------------------------------------------------

    def add(self, nodes: Sequence[BaseNode], **kwargs: Any) -> list[str]:
        """Upsert nodes (each must carry an embedding); returns their ids."""
        if kwargs:
            raise TypeError(f"add() got unexpected keyword arguments: {sorted(kwargs)}")
        ids = [node.node_id for node in nodes]
        if not nodes:
            return ids
        for node in nodes:
            if node.embedding is None:
                raise ValueError(
                    f"node {node.node_id!r} has no embedding; embed nodes before adding them"
                )
        try:
            matrix = np.asarray([node.embedding for node in nodes], dtype=np.float32)
        except ValueError as exc:  # numpy's message for ragged input is cryptic
            raise ValueError("nodes carry embeddings of different lengths") from exc
        if matrix.ndim != 2:
            raise ValueError("nodes carry embeddings of different lengths")
        # The same id twice in one call: the later node wins, as sequential adds would.
        last = {id_: pos for pos, id_ in enumerate(ids)}
        stored = {}
        for id_, pos in last.items():
            # The vector lives in FAISS; keeping it on the node too would double the memory.
            copy = nodes[pos].model_copy(deep=True)
            copy.embedding = None
            stored[id_] = copy
        with self._lock:
            if self._index is None:
                self._index = FaissIndex(matrix.shape[1])
            self._index.add(list(last), matrix[list(last.values())])
            self._nodes.update(stored)
        return ids

    def _remove(self, ids: list[str]) -> None:
        with self._lock:
            if self._index is not None:
                self._index.remove(ids)
            for id_ in ids:
                self._nodes.pop(id_, None)

    def delete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        """Delete every node whose source document is ``ref_doc_id``."""
        with self._lock:
            self._remove([i for i, node in self._nodes.items() if node.ref_doc_id == ref_doc_id])

    def delete_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
        **delete_kwargs: Any,
    ) -> None:
        """Delete the nodes in ``node_ids`` that match ``filters``.

        ``None`` means no restriction, as in LlamaIndex's ``SimpleVectorStore``: with neither,
        every node is deleted.
        """
        with self._lock:
            self._remove([node.node_id for node in self._select(node_ids, filters)])

    def clear(self) -> None:
        """Delete every node."""
        with self._lock:
            self._nodes.clear()
            if self._index is not None:
                self._index.clear()

    # -- reading ---------------------------------------------------------------------------

    def _select(
        self, node_ids: list[str] | None, filters: MetadataFilters | None
    ) -> list[BaseNode]:
        match = compile_filters(filters) if filters is not None else None
        with self._lock:
            if node_ids is None:
                candidates = list(self._nodes.values())
            else:
                found = (self._nodes.get(id_) for id_ in dict.fromkeys(node_ids))
                candidates = [node for node in found if node is not None]
        return [node for node in candidates if match is None or match(node.metadata)]

    def get_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
    ) -> list[BaseNode]:
        """Stored nodes (without embeddings) by id and/or filters; ``None`` means all."""
        return [node.model_copy(deep=True) for node in self._select(node_ids, filters)]

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        """The ``similarity_top_k`` nearest nodes, cosine similarity (higher is closer).

        Honours ``filters``, ``doc_ids`` (source documents) and ``node_ids``; an empty
        ``doc_ids`` or ``node_ids`` list means no restriction.
        """
        if query.mode != VectorStoreQueryMode.DEFAULT:
            raise NotImplementedError(
                f"StepCacheFaissVectorStore supports only the default query mode, "
                f"not {query.mode.value!r}"
            )
        if query.query_embedding is None:
            raise ValueError("query.query_embedding is required (this store is dense only)")
        top_k = query.similarity_top_k
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise ValueError(f"similarity_top_k must be a positive int, got {top_k!r}")
        checks: list[Callable[[BaseNode], bool]] = []
        if query.filters is not None:
            match = compile_filters(query.filters)
            checks.append(lambda node: match(node.metadata))
        # An empty list restricts nothing: ``VectorStoreIndex.as_retriever`` passes the ids of
        # its (for a text-storing store, empty) index struct as ``node_ids``.
        if query.doc_ids:
            doc_ids = set(query.doc_ids)
            checks.append(lambda node: node.ref_doc_id in doc_ids)
        if query.node_ids:
            node_ids = set(query.node_ids)
            checks.append(lambda node: node.node_id in node_ids)
        with self._lock:
            if self._index is None:
                return VectorStoreQueryResult(nodes=[], similarities=[], ids=[])
            allowed = (
                (lambda id_: all(check(self._nodes[id_]) for check in checks)) if checks else None
            )
            hits = self._index.search(query.query_embedding, top_k, allowed)
            nodes = [self._nodes[id_].model_copy(deep=True) for id_, _ in hits]
        return VectorStoreQueryResult(
            nodes=nodes,
            similarities=[score for _, score in hits],
            ids=[id_ for id_, _ in hits],
        )
