"""Turn a profile set into verl's multi-turn dataset: one row per (profile, seed).

    python3 integrations/verl/make_dataset.py --server http://127.0.0.1:8787 --set train \
        --seeds 4 --out data/empathy/train.parquet

Each row: `data_source`, `prompt` (the system line and the user's opening, as chat messages),
`ability`, `reward_model`, and `extra_info.interaction_kwargs` (the interaction's `name`,
`profile_id`, `seed`, `difficulty`, `mode`) that verl hands to EmpathyUserInteraction. Openings come
from the server (a stateless replay with no replies), so they are the engine's own. Writes parquet
when pandas is importable and the path ends in .parquet; JSON lines otherwise. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from empathy_users import UsersClient  # noqa: E402

# The lab's system line (src/engine/model/format.ts) and its think-mode variant.
SYSTEM_LINE = (
    "You are chatting with a friend who is going through something. Reply briefly and warmly, in plain words."
)
SYSTEM_LINE_THINK = SYSTEM_LINE + " Before each reply, plan it inside <think></think>."
INTERACTION_NAME = "empathy_users"


def build_rows(
    client: UsersClient,
    set_name: str,
    seeds: int,
    difficulty: str,
    mode: str | None,
    think: bool,
    split: str,
    limit: int | None = None,
) -> list[dict[str, Any]]:
    profiles = client.call("GET", f"/v1/profile-sets/{set_name}")["profiles"]
    if limit is not None:
        profiles = profiles[:limit]
    rows: list[dict[str, Any]] = []
    for p in profiles:
        for seed in range(seeds):
            body: dict[str, Any] = {"profileId": p["id"], "set": set_name, "seed": seed, "difficulty": difficulty, "replies": []}
            if mode is not None:
                body["mode"] = mode
            opening = client.replay(**body)
            kwargs = {
                "name": INTERACTION_NAME,
                "profile_id": p["id"],
                "seed": seed,
                "difficulty": difficulty,
                "mode": opening["mode"],
            }
            rows.append(
                {
                    "data_source": f"empathy_users/{set_name}",
                    "prompt": [
                        {"role": "system", "content": SYSTEM_LINE_THINK if think else SYSTEM_LINE},
                        {"role": "user", "content": opening["opening"]},
                    ],
                    "ability": "empathy",
                    # The reward comes from the interaction (final emotion / 100), not a ground truth.
                    "reward_model": {"style": "interaction", "ground_truth": ""},
                    "extra_info": {
                        "split": split,
                        "index": len(rows),
                        "profile_id": p["id"],
                        "interaction_kwargs": kwargs,
                    },
                }
            )
    return rows


def write_rows(rows: list[dict[str, Any]], out: str) -> str:
    """Parquet when pandas is here and `out` ends in .parquet, else JSON lines; returns the format."""
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    if out.endswith(".parquet"):
        try:
            import pandas as pd  # type: ignore
        except ImportError:
            out_jsonl = out[: -len(".parquet")] + ".jsonl"
            print(f"pandas is not installed: writing JSON lines to {out_jsonl}", file=sys.stderr)
            out = out_jsonl
        else:
            pd.DataFrame(rows).to_parquet(out, index=False)
            return "parquet"
    with open(out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return "jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=os.environ.get("EMPATHY_USERS_URL", "http://127.0.0.1:8787"))
    ap.add_argument("--set", default="train", help="profile set on the server (train, benchmark, fixtures, loaded)")
    ap.add_argument("--seeds", type=int, default=1, help="seeds per profile (rows = profiles x seeds)")
    ap.add_argument("--difficulty", default="moderate", choices=["moderate", "strict"])
    ap.add_argument("--mode", default=None, choices=["train", "benchmark"], help="default: benchmark if the profile has an opening line")
    ap.add_argument("--think", action="store_true", help="use the think-mode system line")
    ap.add_argument("--split", default="train")
    ap.add_argument("--limit", type=int, default=None, help="only the first N profiles")
    ap.add_argument("--out", required=True, help="output path (.parquet or .jsonl)")
    a = ap.parse_args(argv)
    rows = build_rows(UsersClient(a.server), a.set, a.seeds, a.difficulty, a.mode, a.think, a.split, a.limit)
    fmt = write_rows(rows, a.out)
    print(f"{len(rows)} rows ({fmt})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
