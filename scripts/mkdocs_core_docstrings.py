"""A griffe extension for the API reference (mkdocs.yml): the extension module
`tradewinds._core` is described by its stubs (`python/tradewinds/_core.pyi`), which carry the
signatures, and its docstrings live in the Rust bindings. When the extension is built and
importable, each stubbed class, function, method and property takes the docstring of the
object it describes; without it, the stubs alone are shown.

The docstrings are written for Python's help and IDEs, with Sphinx's roles
(:func:`tradewinds.simulate`); the site shows each role's target as code."""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import griffe


def _runtime_doc(value: Any) -> str | None:
    doc = getattr(value, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    # Plain values (the module's constants) only have their type's docstring.
    if not (inspect.isclass(value) or callable(value) or inspect.isdatadescriptor(value)):
        return None
    return inspect.cleandoc(doc)


def _fill(obj: griffe.Object, value: Any) -> None:
    if obj.docstring is None:
        doc = _runtime_doc(value)
        if doc:
            obj.docstring = griffe.Docstring(doc, parent=obj)
    if obj.is_class:
        for name, member in obj.members.items():
            if member.is_alias or name.startswith("__"):
                continue
            attribute = inspect.getattr_static(value, name, None)
            if attribute is not None:
                _fill(member, attribute)


ROLE = re.compile(r":(?:py:)?(?:func|meth|class|attr|mod|exc|data|obj|const):`~?([^`]+)`")


def _plain_roles(obj: griffe.Object) -> None:
    """Each Sphinx role in `obj`'s docstrings and its members' becomes its target in code."""
    if obj.docstring is not None:
        obj.docstring.value = ROLE.sub(r"`\1`", obj.docstring.value)
    for member in obj.members.values():
        if not member.is_alias:
            _plain_roles(member)


class CoreDocstrings(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name != "tradewinds":
            return
        self._fill_core(pkg)
        _plain_roles(pkg)

    def _fill_core(self, pkg: griffe.Module) -> None:
        if "_core" not in pkg.members:
            return
        try:
            core = importlib.import_module("tradewinds._core")
        except ImportError:
            return
        for name, member in pkg["_core"].members.items():
            if name.startswith("__") or not hasattr(core, name):
                continue
            if member.is_alias:
                # The bindings name their classes' module `tradewinds`, which re-exports them.
                try:
                    member = member.final_target
                except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                    continue
            if member.is_class or member.is_function:
                _fill(member, getattr(core, name))
            elif member.is_attribute and member.docstring is not None:
                # A constant inspected at run time got its type's docstring (int's, tuple's).
                value = getattr(core, name)
                if member.docstring.value == inspect.cleandoc(type(value).__doc__ or ""):
                    member.docstring = None

    # The hook's name in griffe before 2.0.
    on_package_loaded = on_package
