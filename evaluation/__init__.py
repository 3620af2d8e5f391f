"""The offline tooling of the hygiene judge and pipeline: evaluation, training, generated data.

Nothing here runs in the server, and the product (zeromemory, memories, review) never imports it
(import-linter says so); it imports the product as any client would. ``python -m evaluation``
(``./zm eval``, ``./zm train``) runs its two commands, ``commands/eval_hygiene`` and
``commands/train_judge``.

- Whole-store evaluation (SPEC §6): ``store`` writes a deterministic synthetic store, an agent's
  life of about 2,400 undeclared memories about many subjects, with its ground truth;
  ``whole_store`` runs that store through the real API and a real task worker and scores what
  hygiene did to it (``bench/hygiene_store.py`` is the command line). ``chat_store`` builds stores
  of chat turns with their ground truth (the project's own chat histories, and LongMemEval's
  turns), which ``chat_run`` runs and scores the same way. Both runs use ``harness`` (the
  throwaway deployment: its own embedded PostgreSQL and gunicorn) and ``queue_shape`` (conflict
  groups and R-H9's counts). ``retrieval`` scores similar_existing and recall on update chains.
- The judge: ``pairs`` scores it on the labelled pairs out of source, on the external set and on
  the blind source; ``training`` and ``cross_encoder_training`` train it and write the weights the
  server reads (review/judges/local_judge.json, review/judges/cross_encoder/).
- Data: ``data/`` holds the labelled sources (``source_*.py`` writes each ``*.jsonl``; LABELS.md),
  ``blind/`` the source nobody tuning the judge reads, ``baseline_judge.json`` the first model.
"""
