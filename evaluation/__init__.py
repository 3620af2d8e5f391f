"""Whole-store evaluation of the hygiene pipeline (SPEC §6).

``store`` writes a deterministic synthetic store, an agent's life of about 2,400 undeclared
memories about many subjects, with its ground truth; ``whole_store`` runs that store through
the real API and a real task worker and scores what hygiene did to it (``bench/hygiene_store.py``
is the command line). ``chat_store`` builds stores of chat turns with their ground truth (the
project's own chat histories, and LongMemEval's turns), which ``chat_run`` runs and scores the
same way. Both runs use ``harness`` (the throwaway deployment) and ``queue_shape`` (conflict
groups and R-H9's counts); ``./zm eval`` runs them all.
"""
