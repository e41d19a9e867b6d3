"""Write the bundled help-centre example that ``reportgen demo`` runs on.

The data is synthetic: a made-up consumer-electronics shop, its help-centre index,
a hand-written gold set, four retrieval runs of different quality, end-to-end
verdicts and an index manifest. Everything is drawn from one fixed seed with the
standard library only, so re-running this script gives byte-identical files (on any
Python this project supports; the random module only promises random() itself stable
across versions, so a future Python could change a draw: then regenerate and commit).

    python scripts/make_example.py [--out DIR]

How a run is drawn: every gold chunk gets a latent difficulty shared between the
runs (a hard question is hard for every method) mixed with each run's own noise,
and lands in the top 5, further down the top 20, or nowhere, with chances that
depend on the run and on the question's kind (see PROFILES). The rest of each list
is filled with near misses: other chunks of the same documents and of the same area.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from string import Template

from example_spans import write_spans

SEED = 20261129
GOLD_VERSION = "2026.11-gold.3"
INDEX_VERSION = "kb-2026-11-02"
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "reportgen" / "examples" / "helpcentre"
DEPTH = 20  # results per question in every run
K_CTX = 5  # chunks sent to the model
RUNS = ("keyword", "dense", "hybrid", "rerank")
EXTRA_QID = "q999"  # in the keyword run, not in the gold set

# name -> (area, chunks in the current index). Areas decide where near misses come from.
DOCS: dict[str, tuple[str, int]] = {
    "refunds": ("returns", 11),
    "returns-policy": ("returns", 9),
    "returns-table": ("returns", 8),
    "gift-cards": ("returns", 8),
    "price-match": ("returns", 6),
    "trade-in": ("returns", 10),
    "promotions-black-friday": ("returns", 7),
    "recycling": ("returns", 5),
    "internal-refund-overrides": ("returns", 9),
    "shipping-options": ("orders", 8),
    "shipping-rates-table": ("orders", 6),
    "international-shipping": ("orders", 9),
    "order-tracking": ("orders", 7),
    "order-changes": ("orders", 6),
    "store-pickup": ("orders", 7),
    "store-hours": ("orders", 9),
    "api-orders": ("orders", 14),
    "warranty-standard": ("devices", 10),
    "warranty-extended": ("devices", 12),
    "warranty-claims": ("devices", 9),
    "firmware-aria-x200": ("devices", 13),
    "firmware-orbit-s3": ("devices", 8),
    "firmware-vela-tab": ("devices", 7),
    "error-codes-speaker": ("devices", 15),
    "product-aria-x200": ("devices", 10),
    "product-vela-tab-10": ("devices", 8),
    "setup-nimbus-speaker": ("devices", 12),
    "battery-safety": ("devices", 9),
    "internal-escalations": ("devices", 11),
    "internal-sku-mapping": ("devices", 12),
    "account-signin": ("account", 8),
    "account-2fa": ("account", 9),
    "account-delete": ("account", 5),
    "billing-invoices": ("account", 7),
    "billing-subscriptions": ("account", 10),
    "payment-methods": ("account", 8),
    "error-codes-payments": ("account", 13),
    "student-discount": ("account", 5),
    "internal-fraud-holds": ("account", 8),
    "faq-general": ("account", 14),
}

# The gift-cards page was re-ingested in place (without a new index version) and came
# back with 8 chunks instead of 11. The gold set still names two of the old ids; the
# runs find the same text under its new id.
STALE_SUCCESSORS = {
    "kb-gift-cards-0009": "kb-gift-cards-0007",
    "kb-gift-cards-0011": "kb-gift-cards-0008",
}

# (kind, question, gold) with gold as "doc:n" refs, a list or {ref: grade}.
# Unanswerable questions name the documents that look related instead.
QUESTIONS: list[tuple[str, str, list[str] | dict[str, int]]] = [
    ("plain", "How long does it take for a refund to show up on my card?", ["refunds:3"]),
    ("plain", "Can I get my money back if I paid with a gift card?",
     ["refunds:5", "gift-cards:4"]),
    ("plain", "How do I cancel an order that hasn't shipped yet?", ["order-changes:2"]),
    ("plain", "Can I change the delivery address after I've placed the order?",
     {"order-changes:4": 2, "shipping-options:6": 1}),
    ("plain", "Where do I find the tracking number for my order?", ["order-tracking:1"]),
    ("plain", "My tracking has said 'label created' for four days. Is my parcel lost?",
     ["order-tracking:5"]),
    ("plain", "Do you ship to Canada, and who pays the import duties?",
     {"international-shipping:4": 2, "international-shipping:2": 1}),
    ("plain", "How do I reset my password if I can't get into my old email account?",
     ["account-signin:6"]),
    ("plain", "I lost the phone with my authenticator app. How do I get back into my account?",
     {"account-2fa:7": 2, "account-signin:6": 1}),
    ("plain", "How do I close my account and have all my data deleted?",
     ["account-delete:1", "account-delete:3"]),
    ("plain", "Where can I download a VAT invoice for a business purchase?",
     ["billing-invoices:2"]),
    ("plain", "How do I cancel my Cloud+ subscription before it renews?",
     ["billing-subscriptions:4"]),
    ("plain", "Can I split one order across two cards?", ["payment-methods:5"]),
    ("plain", "Is there a student discount, and how do I prove I'm a student?",
     ["student-discount:1", "student-discount:3"]),
    ("plain", "How do I connect the Nimbus speaker to my home Wi-Fi?",
     ["setup-nimbus-speaker:2"]),
    ("plain", "How does trading in my old tablet work, and when do I get the credit?",
     {"trade-in:2": 2, "trade-in:5": 2, "trade-in:6": 1}),
    ("plain", "Can I drop off old batteries at one of your stores?", ["recycling:3"]),
    ("plain", "My gift was refunded to the person who bought it, not to me. Why?",
     ["faq-general:8", "refunds:7", "gift-cards:5"]),
    ("plain", "Can I top up a gift card I bought in one of your stores?",
     ["gift-cards:3", "gift-cards:11"]),
    ("version", "What's the latest firmware for the Aria X200 headphones?",
     ["firmware-aria-x200:1"]),
    ("version", "Multipoint disappeared from my Aria X200 after the 4.2 update. Is that expected?",
     {"firmware-aria-x200:6": 2, "firmware-aria-x200:7": 1}),
    ("version", "Does the Orbit S3 still work with the old Orbit Companion app after firmware 2.0?",
     ["firmware-orbit-s3:4"]),
    ("version", "I ordered in September, before the refund policy changed. Do I still get 60 days?",
     {"refunds:9": 2, "refunds:1": 1}),
    ("version", "Which Vela Tab models will get Android 16?", ["firmware-vela-tab:3"]),
    ("version", "Can I transfer CarePlus to a new owner if I bought it before 2025?",
     ["warranty-extended:8"]),
    ("version", "Can I roll the Nimbus speaker back from firmware 7.1 to 7.0?",
     ["setup-nimbus-speaker:11"]),
    ("table", "How many days do I have to return opened headphones?", ["returns-table:3"]),
    ("table", "How much is express shipping to Alaska?", ["shipping-rates-table:4"]),
    ("table", "What time does the Riverside store open on Sundays?", ["store-hours:6"]),
    ("table", "I bought a laptop on 28 November. When does my return window end?",
     ["returns-table:5", "returns-table:6"]),
    ("table", "What's the restocking fee on an opened drone?", ["returns-table:4"]),
    ("table", "How much trade-in credit would I get for a Vela Tab 8 in good condition?",
     ["trade-in:8"]),
    ("table", "Which stores stay open late on Thursdays?",
     ["store-hours:2", "store-hours:3", "store-hours:4"]),
    ("exact-code", "What does error E-1042 on the Nimbus speaker mean?", ["error-codes-speaker:4"]),
    ("exact-code", "Setup keeps failing with E-1107.", ["error-codes-speaker:7"]),
    ("exact-code", "My card was declined with code P-2203. What should I do?",
     ["error-codes-payments:3"]),
    ("exact-code", "What is payment error P-2310?", ["error-codes-payments:6"]),
    ("exact-code", "Does SKU AX200-BLK-EU work with a US charger?", ["product-aria-x200:7"]),
    ("exact-code", "GET /v2/orders/{id}/shipments returns 404 for orders placed today",
     ["api-orders:5"]),
    ("exact-code", "What happens when X-RateLimit-Remaining reaches 0 on the orders API?",
     ["api-orders:9"]),
    ("exact-code", "Gift card redemption fails with GC-017", ["gift-cards:9"]),
    ("exact-code", "My warranty claim shows status W-REJ-04. What does it mean?",
     ["warranty-claims:6"]),
    ("contradiction", "What's the minimum order for free shipping?",
     ["faq-general:4", "shipping-rates-table:2"]),
    ("contradiction", "Is the return window for smartwatches 15 or 30 days?",
     ["returns-policy:3", "returns-table:7"]),
    ("contradiction", "Do you price match during the Black Friday sale?",
     ["price-match:4", "promotions-black-friday:6"]),
    ("contradiction", "How long is the warranty on a replacement battery?",
     ["warranty-standard:5", "battery-safety:8"]),
    ("contradiction", "How long will you hold my order for in-store pickup?",
     ["store-pickup:3", "faq-general:9"]),
    ("staff-only", "Can a manager approve a refund after the 30-day window?",
     ["internal-refund-overrides:1", "internal-refund-overrides:3"]),
    ("staff-only", "When should an agent escalate a warranty claim to tier 2?",
     ["internal-escalations:4"]),
    ("staff-only", "Why is my order stuck in 'under review', and how long will it take?",
     {"internal-fraud-holds:2": 2, "internal-fraud-holds:5": 1}),
    ("staff-only", "Which internal SKU does a refurbished Aria X200 map to?",
     ["internal-sku-mapping:6"]),
    ("staff-only", "Can the restocking fee be waived for a Plus member?",
     {"internal-refund-overrides:7": 2, "returns-table:4": 1}),
    ("outside-kb", "Do you sell refurbished drones in Japan?",
     ["international-shipping", "trade-in"]),
    ("outside-kb", "Can I pay with cryptocurrency?", ["payment-methods"]),
    ("outside-kb", "When is the Aria X300 coming out?",
     ["product-aria-x200", "firmware-aria-x200"]),
    ("outside-kb", "Do you install wall-mounted TVs?", ["faq-general", "store-pickup"]),
    ("outside-kb", "What is the CEO's email address?", ["faq-general"]),
    ("outside-kb", "Can I return something I bought from a marketplace seller elsewhere?",
     ["returns-policy", "refunds"]),
    ("outside-kb", "Can I take the Orbit S3 scuba diving at 40 metres?",
     ["firmware-orbit-s3", "battery-safety"]),
    ("outside-kb", "Is there a store in Reykjavik?", ["store-hours", "international-shipping"]),
]  # fmt: skip

KINDS = (
    "plain",
    "version",
    "table",
    "exact-code",
    "contradiction",
    "staff-only",
    "outside-kb",
)

# Per run and kind: chance that one gold chunk is in the top 5, and in the top 20.
# keyword: exact tokens win (codes, SKUs), paraphrase loses; dense: the reverse.
PROFILES: dict[str, dict[str, tuple[float, float]]] = {
    "keyword": {"plain": (0.28, 0.55), "version": (0.60, 0.85), "table": (0.50, 0.80),
                "exact-code": (0.92, 0.98), "contradiction": (0.40, 0.70),
                "staff-only": (0.40, 0.65)},
    "dense": {"plain": (0.72, 0.93), "version": (0.68, 0.88), "table": (0.65, 0.88),
              "exact-code": (0.40, 0.70), "contradiction": (0.72, 0.92),
              "staff-only": (0.65, 0.85)},
    "hybrid": {"plain": (0.82, 0.95), "version": (0.80, 0.92), "table": (0.75, 0.90),
               "exact-code": (0.85, 0.97), "contradiction": (0.75, 0.92),
               "staff-only": (0.70, 0.88)},
    "rerank": {"plain": (0.84, 0.97), "version": (0.82, 0.95), "table": (0.75, 0.95),
               "exact-code": (0.92, 0.99), "contradiction": (0.75, 0.95),
               "staff-only": (0.72, 0.92)},
}  # fmt: skip
# Relative weights of ranks 1-5 for a gold chunk that made the top 5.
TOP5_WEIGHTS = {
    "keyword": (3, 2.5, 2, 1.5, 1),
    "dense": (3, 2.5, 2, 1.5, 1),
    "hybrid": (4, 3, 2, 1.5, 1),
    "rerank": (6, 3, 2, 1.2, 1),
}
SHARED_DIFFICULTY = 0.6  # correlation of one chunk's difficulty across runs
# Chance the model answers correctly when the gold reached its top 5, by kind.
P_CORRECT_WITH_GOLD = {"plain": 0.88, "version": 0.80, "table": 0.62,
                       "exact-code": 0.88, "contradiction": 0.45, "staff-only": 0.75}  # fmt: skip
P_CORRECT_WITHOUT_GOLD = 0.25  # answered from memory
P_ABSTAIN_WHEN_WRONG = {True: 0.10, False: 0.45}  # keyed by "gold in the top 5"


@dataclass(frozen=True)
class Question:
    """One gold-set question, as drawn and numbered."""

    qid: str
    kind: str
    text: str
    gold: dict[str, int]  # chunk id -> grade; empty when unanswerable
    near: tuple[str, ...]  # documents the question is about (gold's or look-alikes)
    graded: bool  # written as {"chunk": grade} rather than a list

    @property
    def unanswerable(self) -> bool:
        return not self.gold

    @property
    def evidence(self) -> list[str]:
        """The chunks a run can actually find: stale gold ids under their new id."""
        return [STALE_SUCCESSORS.get(chunk, chunk) for chunk in self.gold]


def chunk_id(ref: str) -> str:
    """``"refunds:3"`` -> ``"kb-refunds-0003"``."""
    doc, number = ref.split(":")
    return f"kb-{doc}-{int(number):04d}"


def index_chunks() -> list[str]:
    """Every chunk id of the current index, sorted."""
    return sorted(
        f"kb-{doc}-{n:04d}" for doc, (_, count) in DOCS.items() for n in range(1, count + 1)
    )


def doc_of(chunk: str) -> str:
    """``"kb-refunds-0003"`` -> ``"refunds"``."""
    return chunk[3:-5]


def build_questions(rng: random.Random) -> list[Question]:
    """Shuffle the hand-written questions (a real set is not sorted by kind) and number them."""
    rows = list(QUESTIONS)
    rng.shuffle(rows)
    questions = []
    for number, (kind, text, spec) in enumerate(rows, start=1):
        if kind == "outside-kb":
            gold, near, graded = {}, tuple(spec), False
        else:
            graded = isinstance(spec, dict)
            gold = (
                {chunk_id(r): g for r, g in spec.items()}
                if graded
                else {chunk_id(r): 1 for r in spec}
            )
            near = tuple(dict.fromkeys(doc_of(c) for c in gold))
        questions.append(Question(f"q{number:03d}", kind, text, gold, near, graded))
    return questions


def check_corpus(questions: list[Question], index: set[str]) -> None:
    """Fail loudly if a gold id is missing from the index other than the deliberate stale ones."""
    missing = {c for q in questions for c in q.gold if c not in index}
    if missing != set(STALE_SUCCESSORS):
        raise SystemExit(f"gold ids missing from the index: {sorted(missing)}")


def difficulties(
    rng: random.Random, questions: list[Question]
) -> dict[tuple[str, str, str], float]:
    """Per (run, question, chunk): a uniform draw, correlated across runs (Gaussian copula)."""
    normal, own = NormalDist(), math.sqrt(1 - SHARED_DIFFICULTY**2)
    out = {}
    for q in questions:
        for chunk in q.evidence:
            shared = rng.gauss(0, 1)
            for run in RUNS:
                z = SHARED_DIFFICULTY * shared + own * rng.gauss(0, 1)
                out[run, q.qid, chunk] = normal.cdf(z)
    return out


def near_misses(
    rng: random.Random, q: Question, taken: set[str], index: list[str], n: int
) -> list[str]:
    """Fill a list: mostly other chunks of the same documents and area, some from anywhere."""
    areas = {DOCS[d][0] for d in q.near}
    same_doc = [c for c in index if doc_of(c) in q.near]
    same_area = [c for c in index if DOCS[doc_of(c)][0] in areas]
    picked: list[str] = []
    while len(picked) < n:
        draw = rng.random()
        pool = same_doc if draw < 0.35 else same_area if draw < 0.85 else index
        chunk = rng.choice(pool)
        if chunk not in taken:
            taken.add(chunk)
            picked.append(chunk)
    return picked


def ranked_list(rng: random.Random, run: str, q: Question, u: dict, index: list[str]) -> list[str]:
    """Place each gold chunk by its difficulty, then fill the free ranks with near misses."""
    slots: list[str | None] = [None] * DEPTH
    p5, p20 = PROFILES[run].get(q.kind, (0, 0))
    for chunk in q.evidence:
        difficulty = u[run, q.qid, chunk]
        if difficulty < p5:
            free = [i for i in range(K_CTX) if slots[i] is None]
            weights = [TOP5_WEIGHTS[run][i] for i in free]
        elif difficulty < p20:
            free = [i for i in range(K_CTX, DEPTH) if slots[i] is None]
            weights = [1] * len(free)
        else:
            continue
        slots[rng.choices(free, weights)[0]] = chunk
    fill = iter(near_misses(rng, q, set(q.evidence), index, slots.count(None)))
    return [chunk if chunk is not None else next(fill) for chunk in slots]


def decreasing(
    rng: random.Random, top: float, factors: tuple[float, float], places: int
) -> list[float]:
    """DEPTH scores from ``top``, each a random fraction (within ``factors``) of the one before."""
    scores = [top]
    for _ in range(DEPTH - 1):
        scores.append(scores[-1] * rng.uniform(*factors))
    return strictly_decreasing(scores, places)


def strictly_decreasing(scores: list[float], places: int) -> list[float]:
    """Round to ``places``; where rounding made two equal, lower the second by one unit."""
    unit, out = 10**-places, []
    for score in scores:
        out.append(round(min(score, out[-1] - unit) if out else score, places))
    if out[-1] <= 0:
        raise SystemExit(f"scores fell to zero: {out}")
    return out


def keyword_scores(rng: random.Random, q: Question, ranked: list[str]) -> list[float]:
    """BM25-like: high when a rare token (a code, a SKU) matches, long flat tail."""
    top = (
        rng.uniform(14, 24)
        if q.kind == "exact-code" and ranked[0] in q.evidence
        else rng.uniform(7, 15)
    )
    return decreasing(rng, top, (0.86, 0.99), 4)


def dense_scores(rng: random.Random, q: Question, ranked: list[str]) -> list[float]:
    """Cosine-like, 0.2 to 0.9, bunched together (dense scores separate little)."""
    top = rng.uniform(0.68, 0.88) if ranked[0] in q.evidence else rng.uniform(0.55, 0.75)
    return decreasing(rng, top, (0.95, 0.995), 4)


def hybrid_scores(rng: random.Random, q: Question, ranked: list[str]) -> list[float]:
    """Reciprocal-rank-fusion-like: two lists' 1/(60 + rank), summed."""
    return decreasing(rng, rng.uniform(0.0295, 0.0328), (0.95, 0.995), 6)


def rerank_scores(
    rng: random.Random, q: Question, ranked: list[str], near_miss: bool
) -> list[float]:
    """A calibrated cross-encoder: top-1 high when it holds the answer, low when nothing does;
    ``near_miss`` marks the unanswerable questions that look answerable (the overlap)."""
    if q.unanswerable:
        logit = rng.gauss(0.3, 0.2) if near_miss else rng.gauss(-1.1, 0.5)
    else:
        logit = rng.gauss(2.4, 0.5) if ranked[0] in q.evidence else rng.gauss(1.2, 0.5)
    logits = [logit]
    for chunk in ranked[1:]:
        logits.append(logits[-1] - rng.uniform(*(0.05, 0.3) if chunk in q.evidence else (0.1, 0.4)))
    return strictly_decreasing([1 / (1 + math.exp(-x)) for x in logits], 5)


def add_ties(
    rng: random.Random, questions: list[Question], lists: dict, scores: dict
) -> list[tuple]:
    """Two exact ties in the keyword run, one straddling k_ctx (ranks 5 and 6), written in
    trec_eval's order (chunk id descending) so the rank column agrees with it."""
    straddling = [
        q for q in questions if len({lists[q.qid][4], lists[q.qid][5]} & set(q.evidence)) == 1
    ]
    deep = [q for q in questions if q not in straddling]
    ties = [(rng.choice(straddling).qid, 4), (rng.choice(deep).qid, 10)]
    for qid, i in ties:
        scores[qid][i + 1] = scores[qid][i]
        pair = sorted(lists[qid][i : i + 2], reverse=True)
        lists[qid][i : i + 2] = pair
    return [(qid, i + 1) for qid, i in ties]


def add_repeats(rng: random.Random, questions: list[Question], lists: dict) -> list[tuple]:
    """Three chunks listed twice in the hybrid run, as a merge of two lists does: a gold
    chunk and a near miss in one list, a near miss in another."""
    single = [q for q in questions if len(q.gold) == 1 and lists[q.qid][0] in q.evidence]
    first = rng.choice(single)
    other = rng.choice(
        [q for q in questions if q is not first and lists[q.qid][11] not in q.evidence]
    )
    repeats = [(first.qid, 0, 8), (first.qid, 2, 13), (other.qid, 3, 11)]
    for qid, src, dst in repeats:
        lists[qid][dst] = lists[qid][src]
    return [(qid, lists[qid][src], src + 1, dst + 1) for qid, src, dst in repeats]


def draw_verdicts(
    rng: random.Random, questions: list[Question], top5: dict, answered: set[str]
) -> list[dict]:
    """Verdicts for the rerank run at k_ctx, from whether the evidence truly reached the model."""
    verdicts = []
    for q in questions:
        if q.unanswerable:
            abstained = q.qid not in answered
            verdicts.append(
                {"id": q.qid, "run": "rerank", "correct": abstained, "abstained": abstained}
            )
            continue
        seen = bool(set(q.evidence) & set(top5[q.qid]))
        correct = rng.random() < (P_CORRECT_WITH_GOLD[q.kind] if seen else P_CORRECT_WITHOUT_GOLD)
        abstained = not correct and rng.random() < P_ABSTAIN_WHEN_WRONG[seen]
        verdicts.append({"id": q.qid, "run": "rerank", "correct": correct, "abstained": abstained})
    return verdicts


def measure(questions: list[Question], lists: dict[str, list[str]], k: int = K_CTX) -> dict:
    """hit@k and recall@k over answerable questions (SPEC.md): repeats count once, a
    question the run lacks counts 0. Also hit@k on exact-code and on plain questions."""
    per_q = {}
    for q in questions:
        if q.unanswerable:
            continue
        top = list(dict.fromkeys(lists.get(q.qid, [])))[:k]
        found = len(set(q.gold) & set(top))
        per_q[q.qid] = (q.kind, float(found > 0), found / len(q.gold))

    def mean(values: list[float]) -> float:
        return sum(values) / len(values)

    return {
        "hit": mean([h for _, h, _ in per_q.values()]),
        "recall": mean([r for _, _, r in per_q.values()]),
        "hit_code": mean([h for kind, h, _ in per_q.values() if kind == "exact-code"]),
        "hit_plain": mean([h for kind, h, _ in per_q.values() if kind == "plain"]),
    }


def four_cells(
    questions: list[Question], lists: dict, verdicts: list[dict]
) -> dict[str, list[str]]:
    """The four cells at k_ctx for answerable questions with a verdict, as SPEC.md defines them."""
    correct = {v["id"]: v["correct"] for v in verdicts}
    cells: dict[str, list[str]] = {"working": [], "generation": [], "memory": [], "retrieval": []}
    for q in questions:
        if q.unanswerable or q.qid not in correct:
            continue
        hit = bool(set(q.gold) & set(lists[q.qid][:K_CTX]))
        cell = (
            ("working" if correct[q.qid] else "generation")
            if hit
            else ("memory" if correct[q.qid] else "retrieval")
        )
        cells[cell].append(q.qid)
    return cells


def generate(out: Path) -> None:
    """Draw everything from one seed, in a fixed order, and write the folder."""
    rng = random.Random(SEED)
    questions = build_questions(rng)
    index = index_chunks()
    check_corpus(questions, set(index))
    u = difficulties(rng, questions)
    lists = {run: {q.qid: ranked_list(rng, run, q, u, index) for q in questions} for run in RUNS}
    extra = Question(EXTRA_QID, "outside-kb", "", {}, ("order-tracking", "order-changes"), False)
    lists["keyword"][EXTRA_QID] = ranked_list(rng, "keyword", extra, u, index)
    answerable = [q.qid for q in questions if not q.unanswerable]
    dense_missing = rng.choice(answerable)
    del lists["dense"][dense_missing]
    near_miss = set(rng.sample([q.qid for q in questions if q.unanswerable], 2))

    by_id = {q.qid: q for q in [*questions, extra]}
    scorers = {"keyword": keyword_scores, "dense": dense_scores, "hybrid": hybrid_scores}
    scores = {
        run: {qid: scorers[run](rng, by_id[qid], ranked) for qid, ranked in lists[run].items()}
        for run in scorers
    }
    scores["rerank"] = {
        qid: rerank_scores(rng, by_id[qid], ranked, qid in near_miss)
        for qid, ranked in lists["rerank"].items()
    }
    ties = add_ties(rng, questions, lists["keyword"], scores["keyword"])
    repeats = add_repeats(rng, questions, lists["hybrid"])

    top5 = {qid: ranked[:K_CTX] for qid, ranked in lists["rerank"].items()}
    verdicts = draw_verdicts(rng, questions, top5, answered=near_miss)
    no_verdict = rng.sample([qid for qid in answerable if qid != dense_missing], 2)
    verdicts = [v for v in verdicts if v["id"] not in no_verdict]

    (out / "runs").mkdir(parents=True, exist_ok=True)
    reranked = {qid: (ranked, scores["rerank"][qid]) for qid, ranked in lists["rerank"].items()}
    evidence = write_spans(out, DOCS, questions, reranked, set(index), write_lines)
    write_gold(out / "gold.jsonl", questions, evidence)
    write_runs(out / "runs", lists, scores)
    write_lines(out / "verdicts.jsonl", [json.dumps(v) for v in verdicts])
    write_lines(out / "manifest.txt", [f"# index_version: {INDEX_VERSION}", *index])
    facts = {
        "questions": questions,
        "dense_missing": dense_missing,
        "ties": ties,
        "repeats": repeats,
        "no_verdict": sorted(no_verdict),
        "near_miss": sorted(near_miss),
        "measures": {run: measure(questions, lists[run]) for run in RUNS},
        "cells": four_cells(questions, lists["rerank"], verdicts),
        "top1": {qid: s[0] for qid, s in scores["rerank"].items()},
    }
    write_lines(out / "README.md", readme(facts).splitlines())


def write_lines(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8", newline="\n")


def write_gold(path: Path, questions: list[Question], evidence: dict[str, list[dict]]) -> None:
    """A _meta line, then one question per line, in id order; evidence where there is."""
    lines = [json.dumps({"_meta": {"version": GOLD_VERSION, "index_version": INDEX_VERSION}})]
    for q in questions:
        gold: list[str] | dict[str, int] = dict(q.gold) if q.graded else list(q.gold)
        record = {
            "id": q.qid,
            "question": q.text,
            "kind": q.kind,
            "gold": gold,
            "unanswerable": q.unanswerable,
            "index_version": INDEX_VERSION,
        }
        if q.qid in evidence:
            record["evidence"] = evidence[q.qid]
        lines.append(json.dumps(record, ensure_ascii=False))
    write_lines(path, lines)


def write_runs(folder: Path, lists: dict, scores: dict) -> None:
    """The four runs, each in a different format a team is likely to have."""
    trec, dense, hybrid, rerank = [], [], ["id,chunk_id,rank,score"], []
    for qid, ranked in lists["keyword"].items():
        s = scores["keyword"][qid]
        trec += [f"{qid} Q0 {c} {r} {s[r - 1]:.4f} bm25" for r, c in enumerate(ranked, 1)]
    for qid, ranked in lists["dense"].items():
        dense.append(json.dumps({"id": qid, "chunks": ranked, "scores": scores["dense"][qid]}))
    for qid, ranked in lists["hybrid"].items():
        s = scores["hybrid"][qid]
        hybrid += [f"{qid},{c},{r},{s[r - 1]:.6f}" for r, c in enumerate(ranked, 1)]
    for qid, ranked in lists["rerank"].items():
        results = [
            {"chunk_id": c, "score": s} for c, s in zip(ranked, scores["rerank"][qid], strict=True)
        ]
        rerank.append(json.dumps({"id": qid, "results": results}))
    write_lines(folder / "keyword.trec", trec)
    write_lines(folder / "dense.jsonl", dense)
    write_lines(folder / "hybrid.csv", hybrid)
    write_lines(folder / "rerank.jsonl", rerank)


def readme(facts: dict) -> str:
    """The folder's README: the prose of make_example_readme.md with this draw's facts."""
    questions: list[Question] = facts["questions"]
    kinds = {k: sum(q.kind == k for q in questions) for k in KINDS}
    n_answerable = len(questions) - kinds["outside-kb"]
    stale = {c: q.qid for q in questions for c in q.gold if c in STALE_SUCCESSORS}
    (tie5_qid, tie5_rank), (tie_qid, tie_rank) = facts["ties"]
    cells, top1 = facts["cells"], facts["top1"]
    ans_top1 = [top1[q.qid] for q in questions if not q.unanswerable]
    una_top1 = [top1[q.qid] for q in questions if q.unanswerable]
    overlap = sum(s <= max(una_top1) for s in ans_top1) + sum(s >= min(ans_top1) for s in una_top1)
    values = {
        "seed": SEED, "gold_version": GOLD_VERSION, "index_version": INDEX_VERSION,
        "k": K_CTX, "depth": DEPTH, "extra_qid": EXTRA_QID,
        "n_chunks": sum(n for _, n in DOCS.values()), "n_docs": len(DOCS),
        "n_internal": sum(d.startswith("internal-") for d in DOCS),
        "n_questions": len(questions), "n_answerable": n_answerable,
        "one_question": f"{1 / n_answerable:.3f}",
        "kinds": ", ".join(f"{n} `{k}`" for k, n in kinds.items()),
        "n_multi": sum(len(q.gold) > 1 for q in questions),
        "n_graded": sum(q.graded for q in questions),
        "dense_missing": facts["dense_missing"],
        "repeats": "; ".join(
            f"`{qid}`: `{chunk}` at ranks {a} and {b}" for qid, chunk, a, b in facts["repeats"]
        ),
        "ties": f"`{tie5_qid}` ranks {tie5_rank} and {tie5_rank + 1} (straddling k = {K_CTX}), "
        f"`{tie_qid}` ranks {tie_rank} and {tie_rank + 1}",
        "stale": ", ".join(f"`{c}` (`{qid}`)" for c, qid in stale.items()),
        "successors": ", ".join(f"`{c}`" for c in STALE_SUCCESSORS.values()),
        "no_verdict": " and ".join(f"`{q}`" for q in facts["no_verdict"]),
        "answered_anyway": " and ".join(f"`{q}`" for q in facts["near_miss"]),
        "measures": "\n".join(
            f"| {run} | {m['hit']:.3f} | {m['recall']:.3f} | {m['hit_code']:.3f} "
            f"| {m['hit_plain']:.3f} |"
            for run, m in facts["measures"].items()
        ),
        "n_verdicts": sum(map(len, cells.values())),
        **{f"n_{cell}": len(ids) for cell, ids in cells.items()},
        "ans_top1": f"{min(ans_top1):.4f} to {max(ans_top1):.4f}",
        "una_top1": f"{min(una_top1):.4f} to {max(una_top1):.4f}",
        "overlap": overlap,
    }  # fmt: skip
    template = Path(__file__).with_name("make_example_readme.md").read_text(encoding="utf-8")
    return Template(template).substitute(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"folder (default {DEFAULT_OUT})"
    )
    generate(parser.parse_args().out)


if __name__ == "__main__":
    main()
