"""An ONNX model written without the ``onnx`` package: the protobuf wire format, by hand.

Only what a plain encoder graph needs: nodes with int, float and int-list attributes, float32 and
int64 initializers as raw little-endian data, tensor inputs and outputs with named or fixed
dimensions, one opset of the default domain. Field numbers are those of ``onnx/onnx.proto``
(unchanged since IR version 3). The server writes its graph with this and loads it with
onnxruntime; the development tests parse the file with ``onnx`` and run its checker.

The file is written in pieces, the large tensors straight from their arrays: building the model
never holds a second copy of the weights in memory. The same graph gives the same bytes.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from itertools import count
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

FLOAT, INT64 = 1, 7  # TensorProto.DataType
_ELEMENT_TYPES = {np.dtype(np.float32): FLOAT, np.dtype(np.int64): INT64}
_VARINT, _FIXED32, _LENGTH = 0, 5, 2  # protobuf wire types
_ATTRIBUTE_FLOAT, _ATTRIBUTE_INT, _ATTRIBUTE_INTS = 1, 2, 7  # AttributeProto.AttributeType

Attribute = int | float | list[int]


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # a negative int64 is its two's complement: ten bytes
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _key(field: int, wire_type: int) -> bytes:
    return _varint(field << 3 | wire_type)


def _int(field: int, value: int) -> bytes:
    return _key(field, _VARINT) + _varint(value)


def _float(field: int, value: float) -> bytes:
    return _key(field, _FIXED32) + struct.pack("<f", value)


def _bytes(field: int, value: bytes | str) -> bytes:
    data = value.encode() if isinstance(value, str) else value
    return _key(field, _LENGTH) + _varint(len(data)) + data


def _attribute(name: str, value: Attribute) -> bytes:
    # AttributeProto: name = 1, f = 2, i = 3, ints = 8, type = 20.
    if isinstance(value, bool):
        raise TypeError(f"attribute {name}: {value!r} is a bool")
    if isinstance(value, float):
        return _bytes(1, name) + _float(2, value) + _int(20, _ATTRIBUTE_FLOAT)
    if isinstance(value, int):
        return _bytes(1, name) + _int(3, value) + _int(20, _ATTRIBUTE_INT)
    return _bytes(1, name) + b"".join(_int(8, v) for v in value) + _int(20, _ATTRIBUTE_INTS)


def _value_info(name: str, element_type: int, dims: Iterable[int | str]) -> bytes:
    # ValueInfoProto {name = 1, type = 2: TypeProto {tensor_type = 1: {elem_type = 1,
    # shape = 2: TensorShapeProto {dim = 1: {dim_value = 1 | dim_param = 2}}}}}
    shape = b"".join(_bytes(1, _int(1, d) if isinstance(d, int) else _bytes(2, d)) for d in dims)
    return _bytes(1, name) + _bytes(2, _bytes(1, _int(1, element_type) + _bytes(2, shape)))


class Graph:
    """Nodes and initializers, in the order they are added; ``save`` writes the model file."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._nodes: list[bytes] = []
        # TensorProto {dims = 1, data_type = 2, name = 8, raw_data = 9}: the head, then the data.
        self._initializers: list[tuple[bytes, memoryview]] = []
        self._names = count()

    def constant(self, name: str, array: npt.NDArray[np.generic]) -> str:
        """An initializer (float32 or int64): its name, to use as a node's input."""
        data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
        head = b"".join(_int(1, d) for d in data.shape) + _int(2, _ELEMENT_TYPES[np.dtype(data.dtype.type)])
        raw = data.reshape(-1).data.cast("B")
        self._initializers.append((head + _bytes(8, name) + _key(9, _LENGTH) + _varint(raw.nbytes), raw))
        return name

    def node(self, op_type: str, inputs: list[str], outputs: list[str] | None = None, **attributes: Attribute) -> str:
        """A node of the default domain; returns its (first) output, named after it if not given."""
        name = f"{op_type}_{next(self._names)}"
        outputs = outputs or [name]
        # NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5.
        body = b"".join(_bytes(1, i) for i in inputs) + b"".join(_bytes(2, o) for o in outputs)
        body += _bytes(3, name) + _bytes(4, op_type)
        body += b"".join(_bytes(5, _attribute(k, v)) for k, v in attributes.items())
        self._nodes.append(body)
        return outputs[0]

    def save(
        self,
        path: Path,
        inputs: list[tuple[str, int, list[int | str]]],
        outputs: list[tuple[str, int, list[int | str]]],
        *,
        opset: int,
        ir_version: int = 8,
        producer: str = "",
    ) -> None:
        """Write the ModelProto to ``path``: inputs and outputs as (name, element type, dims)."""
        with path.open("wb") as handle:
            self._write(handle, inputs, outputs, opset=opset, ir_version=ir_version, producer=producer)

    def _write(
        self,
        handle: BinaryIO,
        inputs: list[tuple[str, int, list[int | str]]],
        outputs: list[tuple[str, int, list[int | str]]],
        *,
        opset: int,
        ir_version: int,
        producer: str,
    ) -> None:
        # GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12.
        graph: list[bytes | memoryview] = [_bytes(1, node) for node in self._nodes]
        graph.append(_bytes(2, self.name))
        for head, raw in self._initializers:
            graph += [_key(5, _LENGTH) + _varint(len(head) + raw.nbytes) + head, raw]
        graph += [_bytes(11, _value_info(*value)) for value in inputs]
        graph += [_bytes(12, _value_info(*value)) for value in outputs]
        # ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 {domain = 1,
        # version = 2}.
        handle.write(_int(1, ir_version) + _bytes(2, producer))
        handle.write(_key(7, _LENGTH) + _varint(sum(part.nbytes for part in _views(graph))))
        for part in graph:
            handle.write(part)
        handle.write(_bytes(8, _bytes(1, "") + _int(2, opset)))


def _views(parts: list[bytes | memoryview]) -> Iterator[memoryview]:
    return (memoryview(part) for part in parts)
