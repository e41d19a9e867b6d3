"""--junit: JUnit XML that the common schema accepts, one suite per run, deterministic."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reportgen.api import ReportChecks, ReportInputs, ReportOutputs, ReportRequest, make_report
from reportgen.cli import cli
from reportgen.load.inputs.config import rules_from_options
from reportgen.render.junit import junit_xml
from tests.render.conftest import GOLD, RUN, write_inputs

etree = pytest.importorskip("lxml.etree")

JUNIT_XSD = """<?xml version="1.0" encoding="UTF-8"?>
<!-- Written for these tests from the constraints of the common JUnit schema (Apache
     Ant's report format, as Jenkins, GitLab and Azure read it): an aggregated
     testsuites document without attributes; each testsuite with properties, test
     cases, system-out and system-err in that order, and its required attributes; a
     timestamp without a time zone; a test case with at most one of skipped, error,
     failure, whose type is required. -->
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
  <xs:simpleType name="text"><xs:restriction base="xs:string">
    <xs:whiteSpace value="preserve"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="name"><xs:restriction base="xs:token">
    <xs:minLength value="1"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="stamp"><xs:restriction base="xs:dateTime">
    <xs:pattern value="\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}"/></xs:restriction></xs:simpleType>
  <xs:complexType name="outcome"><xs:simpleContent><xs:extension base="text">
    <xs:attribute name="message" type="xs:string"/>
    <xs:attribute name="type" type="xs:string" use="required"/>
  </xs:extension></xs:simpleContent></xs:complexType>
  <xs:element name="testsuites"><xs:complexType><xs:sequence>
    <xs:element name="testsuite" minOccurs="0" maxOccurs="unbounded"><xs:complexType>
      <xs:sequence>
        <xs:element name="properties"><xs:complexType><xs:sequence>
          <xs:element name="property" minOccurs="0" maxOccurs="unbounded"><xs:complexType>
            <xs:attribute name="name" type="name" use="required"/>
            <xs:attribute name="value" type="xs:string" use="required"/>
          </xs:complexType></xs:element>
        </xs:sequence></xs:complexType></xs:element>
        <xs:element name="testcase" minOccurs="0" maxOccurs="unbounded"><xs:complexType>
          <xs:choice minOccurs="0">
            <xs:element name="skipped"/>
            <xs:element name="error" type="outcome"/>
            <xs:element name="failure" type="outcome"/>
          </xs:choice>
          <xs:attribute name="name" type="xs:token" use="required"/>
          <xs:attribute name="classname" type="xs:token" use="required"/>
          <xs:attribute name="time" type="xs:decimal" use="required"/>
        </xs:complexType></xs:element>
        <xs:element name="system-out" type="text"/>
        <xs:element name="system-err" type="text"/>
      </xs:sequence>
      <xs:attribute name="name" type="name" use="required"/>
      <xs:attribute name="package" type="xs:token" use="required"/>
      <xs:attribute name="id" type="xs:int" use="required"/>
      <xs:attribute name="timestamp" type="stamp" use="required"/>
      <xs:attribute name="hostname" type="name" use="required"/>
      <xs:attribute name="tests" type="xs:int" use="required"/>
      <xs:attribute name="failures" type="xs:int" use="required"/>
      <xs:attribute name="errors" type="xs:int" use="required"/>
      <xs:attribute name="skipped" type="xs:int"/>
      <xs:attribute name="time" type="xs:decimal" use="required"/>
    </xs:complexType></xs:element>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>
"""


def valid(data: bytes) -> Any:
    schema = etree.XMLSchema(etree.fromstring(JUNIT_XSD.encode()))
    document = etree.fromstring(data)
    schema.assertValid(document)
    return document


def gated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, junit: Path) -> Path:
    """SPEC.md's example with a gate that 'mine' fails and 'reversed' passes, twice (the
    second time against the first as baseline), writing --junit each time."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    gold, runs = write_inputs(tmp_path / "in", GOLD, {"mine": RUN, "reversed": RUN})
    args = ["report", str(gold), *(f"{name}={path}" for name, path in runs), "--quiet"]
    args += ["--format", "json"]
    first = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "first")])
    assert first.exit_code == 0, first.output
    worse = {q: ["x", "y", "z"] if q == "A" else c for q, c in RUN.items()}
    gold, runs = write_inputs(tmp_path / "in2", GOLD, {"mine": worse, "reversed": RUN})
    rules = ["--min", "mine/hit@3=0.9", "--max-drop", "recall@3=0.1"]
    baseline = ["--baseline", str(tmp_path / "first")]
    second = CliRunner().invoke(
        cli,
        [
            "report",
            str(gold),
            *(f"{name}={path}" for name, path in runs),
            "--quiet",
            *("--format", "json"),
            *rules,
            *baseline,
            "--out",
            str(tmp_path / "second"),
            "--junit",
            str(junit),
        ],
    )
    assert second.exit_code == 1, second.output
    return tmp_path / "second"


def test_one_suite_per_run_and_a_case_per_rule_valid_and_deterministic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    junit = tmp_path / "results" / "junit.xml"
    out = gated(tmp_path, monkeypatch, junit)
    document = valid(junit.read_bytes())
    suites = document.findall("testsuite")
    assert [suite.get("name") for suite in suites] == ["run mine", "run reversed", "warnings"]
    mine = suites[0]
    assert (mine.get("tests"), mine.get("failures")) == ("2", "2")
    [minimum, drop] = mine.findall("testcase")
    assert minimum.get("name") == "--min mine/hit@3=0.9"
    message = drop.find("failure").get("message")
    assert message.startswith("--max-drop recall@3=0.1 failed on run mine: value 0.375")
    for fact in ("baseline 0.625", "drop 0.25", "95% interval of the difference [", "p (Holm) "):
        assert fact in message
    reversed_suite = suites[1]
    assert reversed_suite.get("failures") == "0"
    assert [case.find("failure") for case in reversed_suite.findall("testcase")] == [None]
    report = json.loads((out / "report.json").read_text())
    assert junit.read_bytes() == junit_xml(report)  # from report.json alone: same bytes


def test_warnings_fail_under_strict_and_hostile_text_stays_xml(
    spec_example: Any,
) -> None:
    report = dict(spec_example.report)
    report["warnings"] = [
        {"code": "stale_gold", "message": "id \x01<&>\"'", "count": 2, "examples": []},
        {"code": "stale_gold", "message": "again", "count": 1, "examples": []},
        {"code": "ties_at_cutoff", "message": "ties", "count": 1, "examples": []},
    ]
    relaxed = valid(junit_xml(report))
    warnings = relaxed.findall("testsuite")[-1]
    assert [case.get("name") for case in warnings.findall("testcase")] == [
        "stale_gold (2)",
        "ties_at_cutoff (1)",
    ]
    assert warnings.get("failures") == "0"
    strict = valid(junit_xml(report, strict=True)).findall("testsuite")[-1]
    assert strict.get("failures") == "2"
    assert strict.find("testcase/failure").get("message") == "id \ufffd<&>\"'"


def test_junit_is_refused_on_an_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    gold, runs = write_inputs(tmp_path / "in", GOLD, {"mine": RUN})
    before = gold.read_bytes()
    args = ["report", str(gold), f"mine={runs[0][1]}", "--out", str(tmp_path / "o")]
    result = CliRunner().invoke(cli, [*args, "--junit", str(gold)])
    assert result.exit_code == 2 and "would be overwritten" in result.output
    assert gold.read_bytes() == before


def test_api_writes_junit_beside_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    gate = rules_from_options(("hit@3=0.99",), (), False)
    gold, runs = write_inputs(tmp_path / "in", GOLD, {"mine": RUN})
    outputs = dataclasses.replace(ReportOutputs(tmp_path / "o"), junit=tmp_path / "j.xml")
    result = make_report(
        ReportRequest(ReportInputs(gold, runs), outputs, checks=ReportChecks(gate))
    )
    assert tmp_path / "j.xml" in result.files
    assert valid((tmp_path / "j.xml").read_bytes()).find("testsuite/testcase/failure") is not None
