"""The gate and the warnings as JUnit XML, the test-result format every CI reads.

GitLab (``artifacts:reports:junit``), Jenkins, Azure Pipelines and GitHub test
reporters all show JUnit XML. One ``testsuite`` per run holds one ``testcase`` per
gate rule on that run (a ``failure`` when it fails; its message gives the value, the
baseline's, the interval of the difference and the Holm-adjusted p); a last suite
holds one testcase per warning class (failing under ``--strict``). The layout follows
the common JUnit schema (Apache Ant's, as the windyroad JUnit.xsd writes it down):
every suite has ``properties``, ``system-out`` and ``system-err``, an ``id`` and a
``package``, a timestamp without a time zone. Built from report.json alone, so the
same report gives the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from xml.etree import ElementTree as ET

PACKAGE = "reportgen"


def junit_xml(report: Mapping[str, Any], strict: bool = False) -> bytes:
    """report.json's gate and warnings as a JUnit XML document."""
    root = ET.Element("testsuites")
    timestamp = str(report["created"]).removesuffix("Z")
    gate = report.get("gate") or {}
    rules = gate.get("rules") or []
    suites: list[tuple[str, list[ET.Element], list[str]]] = []
    for run in report["runs"]:
        cases = [_rule_case(rule, report) for rule in rules if rule.get("run") == run]
        notes = [str(note) for note in [gate.get("notice")] if note]
        suites.append((f"run {run}", cases, notes))
    warnings = report.get("warnings") or []
    classes = {warning["code"]: warning for warning in reversed(warnings)}  # the first of each
    suites.append(
        (
            "warnings",
            [_warning_case(warning, strict) for warning in reversed(classes.values())],
            [f"{w['code']}: {w['message']}" for w in warnings],
        )
    )
    for number, (name, cases, notes) in enumerate(suites):
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": name,
                "package": PACKAGE,
                "id": str(number),
                "timestamp": timestamp,
                "hostname": "localhost",
                "tests": str(len(cases)),
                "failures": str(sum(case.find("failure") is not None for case in cases)),
                "errors": "0",
                "skipped": "0",
                "time": "0",
            },
        )
        properties = ET.SubElement(suite, "properties")
        for key, value in _properties(report):
            ET.SubElement(properties, "property", {"name": key, "value": value})
        suite.extend(cases)
        ET.SubElement(suite, "system-out").text = "\n".join(notes)
        ET.SubElement(suite, "system-err").text = ""
    for element in root.iter():
        element.attrib = {key: _xml_text(value) for key, value in element.attrib.items()}
        element.text = None if element.text is None else _xml_text(element.text)
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (a hostile id may bring them)."""
    return _NOT_XML.sub("\ufffd", text)


def _properties(report: Mapping[str, Any]) -> list[tuple[str, str]]:
    baseline = report.get("baseline") or {}
    pairs = [
        ("version", report.get("version")),
        ("commit", report.get("commit")),
        ("context_k", report.get("context_k")),
        ("baseline", baseline.get("version")),
    ]
    return [(key, str(value)) for key, value in pairs if value is not None]


def _rule_case(rule: Mapping[str, Any], report: Mapping[str, Any]) -> ET.Element:
    case = ET.Element(
        "testcase",
        {"name": _rule_name(rule), "classname": f"{PACKAGE}.gate.{rule['run']}", "time": "0"},
    )
    if not rule.get("passed"):
        ET.SubElement(
            case, "failure", {"message": _rule_message(rule, report), "type": str(rule["type"])}
        ).text = str(rule.get("message", ""))
    return case


def _rule_name(rule: Mapping[str, Any]) -> str:
    """The rule, and the slice it held (--slice-gate: one test case per slice rule)."""
    where = rule.get("slice")
    return str(rule["rule"]) + ("" if not where else f" in {where['field']}={where['value']}")


def _rule_message(rule: Mapping[str, Any], report: Mapping[str, Any]) -> str:
    """The rule's outcome with its numbers: value, baseline, interval, p (Holm)."""
    sliced = rule.get("slice") is not None
    compared = None if sliced else _compared(report, str(rule["run"]), str(rule["measure"]))
    facts = [
        f"value {_number(rule.get('value'))}",
        f"threshold {_number(rule.get('threshold'))}",
        f"baseline {_number(rule.get('baseline_value'))}",
    ]
    if "drop" in rule:
        facts.append(f"drop {_number(rule['drop'])}")
    if compared:
        low, high = _number(compared.get("ci_low")), _number(compared.get("ci_high"))
        facts.append(f"95% interval of the difference [{low}, {high}]")
    p_holm = rule.get("p_holm", compared.get("p_holm") if compared else None)
    facts.append(f"p (Holm) {_number(p_holm)}")
    return f"{_rule_name(rule)} failed on run {rule['run']}: " + "; ".join(facts)


def _compared(report: Mapping[str, Any], run: str, measure: str) -> Mapping[str, Any] | None:
    """The baseline comparison of ``measure`` on ``run`` (None without one)."""
    baseline = report.get("baseline") or {}
    comparisons: Sequence[Mapping[str, Any]] = baseline.get("comparisons") or []
    for comparison in comparisons:
        if comparison.get("run") == run and measure in (comparison.get("measures") or {}):
            found: Mapping[str, Any] = comparison["measures"][measure]
            return found
    return None


def _number(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "n/a"
    return f"{float(value):.4g}"


def _warning_case(warning: Mapping[str, Any], strict: bool) -> ET.Element:
    case = ET.Element(
        "testcase",
        {
            "name": f"{warning['code']} ({warning.get('count', 0)})",
            "classname": f"{PACKAGE}.warnings",
            "time": "0",
        },
    )
    if strict:
        ET.SubElement(
            case, "failure", {"message": str(warning["message"]), "type": "strict"}
        ).text = str(warning["message"])
    return case
