"""scripts/track_ingest.py: a tracked point and the history file keep the row's steal time
(cpu_steal_us), and a row from before steal was recorded reads as none."""

import helpers
import synth
import track_ingest  # noqa: E402 (helpers puts scripts/ on sys.path)


def doc_with_steal():
    """Two mpi ping-pong rows: one with a steal of 40000 us (contended), one from a file written
    before comops recorded steal (no cpu_steal_us)."""
    stolen = synth.row("mpi", "pingpong", 2, 8, [1.0, 1.1, 0.9], contended=True,
                       cpu_steal_us=40000.0, cpu_steal_window_us=500000.0)
    older = synth.row("mpi", "pingpong", 2, 1024, [2.0, 2.1, 1.9])
    for r in (stolen, older):
        r["pair"] = "intra"
    return {"comops_format": 1, "context": synth.context(), "results": [stolen, older]}


class IngestStealTest(helpers.TempDirTest):
    def test_history_file_keeps_the_steal(self):
        rows = track_ingest.strip(doc_with_steal())["results"]
        self.assertEqual([r.get("cpu_steal_us") for r in rows], [40000.0, None])
        self.assertEqual([r["contended"] for r in rows], [True, False])
        self.assertNotIn("cpu_steal_window_us", rows[0])  # what track.py reads, no more

    def test_tracked_point_knows_its_steal(self):
        path = synth.write(self.path("run.json"), doc_with_steal())
        run = track_ingest.from_comops(path)
        points = {p["bytes"]: p for p in run["points"]}
        self.assertEqual(points[8]["cpu_steal_us"], 40000.0)
        self.assertIs(points[8]["contended"], True)
        self.assertIsNone(points[1024]["cpu_steal_us"])
        # the stripped history file it archives reads back with the same points
        again = synth.write(self.path("again.json"), run["stripped"])
        self.assertEqual(track_ingest.from_comops(again)["points"], run["points"])
