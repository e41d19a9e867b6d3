"""What reached the model, said once: the k_ctx and the verdicts' run assumed, traces'
context, short lists.

A default --context-k of 5 silently cut a system that sends 10 chunks; a trace that
says which chunks were sent replaces the top k_ctx; a run whose lists are all shorter
than k_ctx was measured at a depth it never reached. Each is a sentence here, printed
by the pages, summary.md and the terminal alike.
"""

from __future__ import annotations

from reportgen.render.views.common import plural
from reportgen.schema import Report


def context_k_words(report: Report) -> str:
    """The subtitle's words for k_ctx: ``top 5 chunks sent to the model``, or the traces'.

    Whether k_ctx was assumed is said once, in :func:`context_notes`, not here too.
    """
    words = f"top {report['context_k']} chunks sent to the model"
    traced = [name for name, run in report["runs"].items() if run["context"]["source"] == "trace"]
    if traced:
        words += f"; for {', '.join(traced)}: the chunks the trace says were sent"
    return words


def context_notes(report: Report) -> list[str]:
    """The sentences that make k_ctx visible; empty when nothing needs saying."""
    k = report["context_k"]
    notes = []
    if report["settings"]["context_k_assumed"]:
        cells = report["attribution"].values()
        by_top_k = any(c["context_source"] == "top_k" for c in cells)
        users = "the headline, the four cells and" if by_top_k else "the headline and"
        notes.append(
            f"k_ctx = {k} was assumed (--context-k not given): {users} the charts' marker "
            f"use the top {k} chunks. If the system sends another number of chunks to the "
            "model, pass --context-k with it."
        )
    for warning in report["warnings"]:
        if warning["code"] == "verdicts_run_assumed" and warning["examples"]:
            assumed = warning["examples"][0]
            notes.append(
                f"The verdicts name no run given here, so the four cells are {assumed}'s, the "
                f"first run given (assumed). If another run's chunks were sent to the model, "
                "pass --verdicts-run with it."
            )
    for name, run in report["runs"].items():
        context = run["context"]
        if context["source"] == "trace":
            notes.append(
                f"Run {name}: the four cells use the chunks its trace says were sent to the "
                f"model ({plural(context['traced_questions'], 'question')}), not its top {k}; "
                "the measures at k still read its ranked list."
            )
        elif context["shorter_than_context_k"]:
            notes.append(
                f"Run {name} returns at most {plural(context['longest_list'], 'chunk')} per "
                f"question, fewer than k_ctx = {k}: the measures at {k} read ranks it never filled."
            )
    return notes
