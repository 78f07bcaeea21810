"""The verl interaction against a live users server, held to the TypeScript engine's numbers.

Starts `src/serve/cli.ts --port 0` (reads the port from its first stdout line), plays the
dialogues of fixture.json (written by src/serve/fixture.test.ts from the engine in-process)
through EmpathyUserInteraction, and checks every line, change and reward; checks the dataset
script's rows for verl's field names. The server is killed in tearDownClass, also on failure.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))

import empathy_users  # noqa: E402
import make_dataset  # noqa: E402
from empathy_users import EmpathyUserInteraction, UsersClient, UsersError, strip_think  # noqa: E402

with open(os.path.join(HERE, "fixture.json"), encoding="utf-8") as f:
    FIXTURE = json.load(f)


class ServerCase(unittest.TestCase):
    proc: subprocess.Popen
    url: str

    @classmethod
    def setUpClass(cls) -> None:
        tsx = os.path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")
        cls.proc = subprocess.Popen(
            ["node", "--import", "file://" + tsx, "src/serve/cli.ts", "--port", "0"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            first = cls.proc.stdout.readline().strip() if cls.proc.stdout else ""
            if not first.startswith("listening "):
                raise RuntimeError(f"server did not start: {first!r}")
            cls.url = first.split(" ", 1)[1]
        except BaseException:
            cls._stop()
            raise

    @classmethod
    def _stop(cls) -> None:
        if cls.proc.poll() is None:
            cls.proc.terminate()
            try:
                cls.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                cls.proc.kill()
                cls.proc.wait()
        if cls.proc.stdout:
            cls.proc.stdout.close()

    @classmethod
    def tearDownClass(cls) -> None:
        cls._stop()


class StripThinkTest(unittest.TestCase):
    def test_same_rule_as_the_lab(self) -> None:
        for case in FIXTURE["stripThink"]:
            self.assertEqual(strip_think(case["raw"]), case["visible"], case["raw"])


class InteractionTest(ServerCase):
    def test_local_base_or_verl(self) -> None:
        # Without verl the local base stands in, with verl's four async methods.
        for m in ("start_interaction", "generate_response", "calculate_score", "finalize_interaction"):
            self.assertTrue(asyncio.iscoroutinefunction(getattr(empathy_users.BaseInteraction, m)), m)

    def test_dialogues_match_the_engine(self) -> None:
        async def play(d: dict, interaction: EmpathyUserInteraction) -> None:
            iid = await interaction.start_interaction(
                None, profile_id=d["profileId"], seed=d["seed"], difficulty=d["difficulty"], mode=d["mode"]
            )
            self.assertEqual(interaction._dialogues[iid]["opening"], d["opening"])
            messages = [{"role": "user", "content": d["opening"]}]
            for i, t in enumerate(d["turns"]):
                messages.append({"role": "assistant", "content": t["raw"]})
                done, line, score, extra = await interaction.generate_response(iid, messages)
                where = f"{d['profileId']} turn {i + 1}"
                self.assertEqual(line, t["line"], where)
                self.assertEqual(extra["change"], t["change"], where)
                self.assertAlmostEqual(score, t["change"] / 100, places=12, msg=where)
                self.assertEqual(extra["emotion"], t["emotion"], where)
                self.assertAlmostEqual(extra["reward"], t["reward"], places=12, msg=where)
                self.assertEqual(done, t["over"], where)
                messages.append({"role": "user", "content": line})
            self.assertTrue(done)
            self.assertAlmostEqual(await interaction.calculate_score(iid), d["finalReward"], places=12)
            await interaction.finalize_interaction(iid)
            with self.assertRaises(UsersError) as e:
                UsersClient(self.url).get(iid)
            self.assertEqual(e.exception.status, 404)

        async def all_at_once(batching: dict) -> None:
            interaction = EmpathyUserInteraction({"name": "empathy_users", "base_url": self.url, "set": None, **batching})
            await asyncio.gather(*(play(d, interaction) for d in FIXTURE["dialogues"]))

        def requests(route: str) -> int:
            with urllib.request.urlopen(self.url + "/metrics") as res:
                text = res.read().decode("utf-8")
            prefix = f'users_requests_total{{route="{route}",status="200"}} '
            return sum(int(line[len(prefix):]) for line in text.splitlines() if line.startswith(prefix))

        turns = sum(len(d["turns"]) for d in FIXTURE["dialogues"])
        # Turns gathered into POST /v1/turns (the default window; batches cut at two turns), and a
        # request per turn: the same numbers every way.
        for batching, most, least in (({}, turns // 2, 1), ({"max_batch_turns": 2}, turns, turns // 2), ({"batch_window_ms": 0}, 0, 0)):
            with self.subTest(**batching):
                before = (requests("turns"), requests("reply"))
                asyncio.run(all_at_once(batching))
                batches, singles = requests("turns") - before[0], requests("reply") - before[1]
                self.assertTrue(least <= batches <= most, f"{batches} batch requests for {turns} turns")
                self.assertEqual(singles, 0 if batches else turns)

    def test_batched_turns_fail_one_by_one(self) -> None:
        async def run() -> None:
            interaction = EmpathyUserInteraction({"name": "empathy_users", "base_url": self.url})
            d = FIXTURE["dialogues"][0]
            iid = await interaction.start_interaction(None, profile_id=d["profileId"], seed=d["seed"], mode=d["mode"])
            good = interaction.generate_response(iid, [{"role": "assistant", "content": d["turns"][0]["raw"]}])
            bad = interaction._turn("never-started", "hello")
            results = await asyncio.gather(good, bad, return_exceptions=True)
            self.assertEqual(results[0][1], d["turns"][0]["line"])
            self.assertIsInstance(results[1], UsersError)
            self.assertEqual(results[1].status, 404)
            self.assertIn("never-started", str(results[1]))
            await interaction.finalize_interaction(iid)

        asyncio.run(run())

    def test_turn_cap_reaches_the_server(self) -> None:
        async def run() -> None:
            d = FIXTURE["dialogues"][0]
            client = UsersClient(self.url)
            for config, kwargs, want in (({}, {}, None), ({"turn_cap": 10}, {}, 10), ({"turn_cap": 10}, {"turn_cap": 9}, 9)):
                interaction = EmpathyUserInteraction({"name": "empathy_users", "base_url": self.url, **config})
                iid = await interaction.start_interaction(
                    None, profile_id=d["profileId"], seed=d["seed"], mode="train", **kwargs
                )
                got = client.get(iid)
                self.assertEqual(got["turnCap"], want or 8)
                await interaction.finalize_interaction(iid)
            with self.assertRaises(ValueError):
                EmpathyUserInteraction({"name": "empathy_users", "base_url": self.url, "turn_cap": 11})

        asyncio.run(run())

    def test_errors_name_the_field(self) -> None:
        c = UsersClient(self.url)
        with self.assertRaises(UsersError) as e:
            c.start(profileId="no-such-user")
        self.assertEqual(e.exception.status, 404)
        self.assertIn("profileId", str(e.exception))
        with self.assertRaises(UsersError) as e:
            c.start(profileId="train-0001", seed=-1)
        self.assertEqual(e.exception.status, 400)
        self.assertIn("seed", str(e.exception))

    def test_replay_is_stateless_and_equal(self) -> None:
        d = FIXTURE["dialogues"][0]
        r = UsersClient(self.url).replay(
            profileId=d["profileId"], seed=d["seed"], difficulty=d["difficulty"], mode=d["mode"],
            replies=[t["visible"] for t in d["turns"]],
        )
        self.assertEqual([t["change"] for t in r["results"]], [t["change"] for t in d["turns"]])
        self.assertAlmostEqual(r["reward"], d["finalReward"], places=12)


class DatasetTest(ServerCase):
    def test_rows_have_verls_fields(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "train.parquet")
            code = make_dataset.main(["--server", self.url, "--set", "train", "--seeds", "2", "--limit", "3", "--out", out])
            self.assertEqual(code, 0)
            try:
                import pandas  # type: ignore  # noqa: F401
                path, rows = out, None
            except ImportError:
                path = out[: -len(".parquet")] + ".jsonl"
                with open(path, encoding="utf-8") as f:
                    rows = [json.loads(line) for line in f]
            self.assertTrue(os.path.exists(path))
        if rows is None:
            self.skipTest("pandas present: parquet written, rows checked by verl")
        self.assertEqual(len(rows), 6)
        for i, r in enumerate(rows):
            self.assertEqual(set(r), {"data_source", "prompt", "ability", "reward_model", "extra_info"})
            self.assertEqual([m["role"] for m in r["prompt"]], ["system", "user"])
            kw = r["extra_info"]["interaction_kwargs"]
            self.assertEqual(kw["name"], "empathy_users")
            self.assertEqual(set(kw), {"name", "profile_id", "seed", "difficulty", "mode"})
            self.assertEqual(r["extra_info"]["index"], i)
            self.assertEqual(r["extra_info"]["split"], "train")
        # The opening in the prompt is the one the interaction's dialogue starts with.
        first = rows[0]
        kw = first["extra_info"]["interaction_kwargs"]
        started = UsersClient(self.url).start(profileId=kw["profile_id"], seed=kw["seed"], difficulty=kw["difficulty"], mode=kw["mode"])
        self.assertEqual(first["prompt"][1]["content"], started["opening"])


if __name__ == "__main__":
    unittest.main()
