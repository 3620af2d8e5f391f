from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from evaluation.training import (
    DEFAULT_FEATURE_SET,
    embed_texts,
    embedding_cache,
    embedding_model_name,
    evaluate,
    featurize,
    fit_temperature,
    guarded_predictions,
    labels_of,
    load_examples,
    model_rows,
    out_of_source_logits,
    structural_confidence,
    train,
)
from memories.embedding import get_embedder
from review.judges.features import FEATURE_SETS
from review.judges.local import WEIGHTS_FILE, softmax


class Command(BaseCommand):
    help = (
        "Retrain the local hygiene judge on every labelled source in evaluation/data/*.jsonl: "
        "for each feature set, score it out of source (each source judged by a model trained on "
        "the others, through the structure guard, as the server judges), fit the temperature on "
        "those answers, print the report, and write the chosen model (trained on every source) to "
        "review/judges/local_judge.json unless --dry-run."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--data", type=Path, nargs="*", help="Labelled pairs files (default: every source).")
        parser.add_argument("--output", type=Path, default=WEIGHTS_FILE, help="Where to write the weights.")
        parser.add_argument(
            "--features", choices=sorted(FEATURE_SETS), default=DEFAULT_FEATURE_SET, help="Feature set to ship."
        )
        parser.add_argument("--dry-run", action="store_true", help="Train and report; write nothing.")
        parser.add_argument(
            "--cross-encoder",
            action="store_true",
            help="Train the cross-encoder instead (needs torch: requirements-dev.txt; about 25 minutes a run on "
            "2 cores, one run per source for the out-of-source figures, then one on every source).",
        )
        parser.add_argument(
            "--reuse-out-of-source",
            action="store_true",
            help="With --cross-encoder: take the out-of-source answers of the last training instead of retraining a "
            "model per source (to re-fit the temperature and rule, or ship after changing only the export).",
        )
        parser.add_argument("--epochs", type=int, default=2, help="With --cross-encoder: passes over the pairs.")
        parser.add_argument("--threads", type=int, default=2, help="With --cross-encoder: torch threads.")

    def handle(
        self, *args: Any, data: list[Path] | None, output: Path, features: str, dry_run: bool, **options: Any
    ) -> None:
        if options["cross_encoder"]:
            self._cross_encoder(
                load_examples(data or None),
                dry_run=dry_run,
                reuse=options["reuse_out_of_source"],
                epochs=options["epochs"],
                threads=options["threads"],
            )
            return
        examples = load_examples(data or None)
        sources = sorted({e.source for e in examples})
        self.stdout.write(f"Embedding the {len(examples)} pairs of {len(sources)} sources ({', '.join(sources)})…")
        vectors = embed_texts(examples, get_embedder().embed, cache=embedding_cache(), model=embedding_model_name())
        threshold = settings.HYGIENE_AUTO_RESOLVE_THRESHOLD
        labels = labels_of(examples)
        answered = model_rows(examples)
        chosen: dict[str, Any] = {}
        for feature_set in sorted(FEATURE_SETS):
            matrix = featurize(examples, vectors, feature_set)
            logits = out_of_source_logits(examples, matrix, answered)
            temperature = fit_temperature(logits[answered], labels[answered])
            predictions = guarded_predictions(examples, softmax(logits / temperature))
            pooled = evaluate(examples, predictions, threshold)
            per_source = {}
            for source in sources:
                rows = [i for i, e in enumerate(examples) if e.source == source]
                per_source[source] = evaluate([examples[i] for i in rows], [predictions[i] for i in rows], threshold)
            self.stdout.write(f"\n== features: {feature_set} (temperature {temperature}) — out of source ==")
            self.stdout.write(json.dumps({"pooled": pooled, "per_source": per_source}, indent=1))
            if feature_set == features:
                weights = train(examples, matrix, feature_set, temperature, answered)
                weights["structural_confidence"] = structural_confidence(examples, predictions)
                weights["out_of_source"] = {
                    "pooled": {k: v for k, v in pooled.items() if k != "wrongly_retired_examples"},
                    "per_source": {
                        s: {k: v for k, v in r.items() if k != "wrongly_retired_examples"}
                        for s, r in per_source.items()
                    },
                }
                chosen = weights
        if not dry_run:
            output.write_text(json.dumps(chosen, indent=1) + "\n")
            self.stdout.write(f"Wrote {output} ({chosen['feature_set']}, version {chosen['version']}).")

    def _cross_encoder(self, examples: list[Any], *, dry_run: bool, reuse: bool, epochs: int, threads: int) -> None:
        import hashlib

        import numpy as np

        from evaluation import cross_encoder_training as training
        from review.judges.cross_encoder import MODEL_DIR, RELATIONS

        sources = sorted({e.source for e in examples})
        self.stdout.write(f"Cross-encoder on {len(examples)} pairs of {len(sources)} sources ({', '.join(sources)}).")
        if reuse:
            logits_by_id = training.read_out_of_source()
            missing = [e.id for e in examples if e.id not in logits_by_id]
            if missing:
                raise SystemExit(f"{len(missing)} pairs have no out-of-source answer; train without --reuse")
        else:
            logits_by_id = training.out_of_source(examples, epochs=epochs, threads=threads, progress=self.stdout.write)
        logits = np.array([logits_by_id[e.id] for e in examples])
        labels = np.array([RELATIONS.index(e.relation) for e in examples])
        temperature = training.fit_temperature(logits, labels)
        probabilities = softmax(logits / temperature)
        rule = training.choose_checked_rule(examples, probabilities)
        predictions = guarded_predictions(examples, probabilities, rule)
        threshold = settings.HYGIENE_AUTO_RESOLVE_THRESHOLD
        report: dict[str, Any] = {"pooled": evaluate(examples, predictions, threshold), "per_source": {}}
        for source in sources:
            rows = [i for i, e in enumerate(examples) if e.source == source]
            report["per_source"][source] = evaluate(
                [examples[i] for i in rows], [predictions[i] for i in rows], threshold
            )
        self.stdout.write(f"temperature {temperature:.2f}; cross-checked supersede rule: {rule}")
        self.stdout.write(json.dumps(report, indent=1))
        if dry_run:
            return
        self.stdout.write("Training the shipped model on every source…")
        model, tokenizer = training.fine_tune(examples, epochs=epochs, threads=threads, progress=self.stdout.write)
        digest = hashlib.sha256(json.dumps(sorted(logits_by_id.items())).encode()).hexdigest()[:10]
        meta = {
            "version": f"cross-encoder-{digest}",
            "relations": list(RELATIONS),
            "max_length": training.MAX_LENGTH,
            "temperature": round(temperature, 3),
            "checked_supersede": rule,
            "sources": sources,
            "epochs": epochs,
            "out_of_source": {
                "pooled": {k: v for k, v in report["pooled"].items() if k != "wrongly_retired_examples"},
            },
        }
        held = [examples[i] for i in np.random.default_rng(0).choice(len(examples), 200, replace=False)]
        agreement = training.export(model, tokenizer, MODEL_DIR, meta, held)
        training.write_out_of_source(logits_by_id)
        self.stdout.write(f"Wrote {MODEL_DIR} (int8 ONNX; least agreement with torch on 200 pairs: {agreement:.4f}).")
