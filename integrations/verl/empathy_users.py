"""verl multi-turn interaction over the lab's simulated users (served by `npm run serve-users`).

`EmpathyUserInteraction` is what verl's multi-turn rollout calls per sample: it starts a dialogue
from the sample's `interaction_kwargs` (profile id, seed, difficulty, mode), sends each assistant
turn (think block stripped as the lab does), returns the user's next line, the turn's emotion
change / 100 as `current_turn_score`, ends when the user leaves, and `calculate_score` gives the
final emotion / 100 (RLVER's reward). Standard library only: no install step.

Not here: the engine (TypeScript, src/persona), the dataset (make_dataset.py), verl's config.
"""

from __future__ import annotations

import asyncio
import json
import os
import urllib.error
import urllib.request
import uuid
from typing import Any, Optional

try:  # verl present: be a real BaseInteraction, so verl's registry accepts the class.
    from verl.interactions.base import BaseInteraction  # type: ignore
except Exception:  # noqa: BLE001 - any import failure means "no verl here"

    class BaseInteraction:  # type: ignore[no-redef]
        """verl's interface, for running without verl (same constructor and async methods)."""

        def __init__(self, config: dict[str, Any]):
            self.config = config
            self.name: str = config.get("name", "interaction_agent")

        async def start_interaction(self, instance_id: Optional[str] = None, **kwargs: Any) -> str:
            return instance_id if instance_id is not None else str(uuid.uuid4())

        async def generate_response(
            self, instance_id: str, messages: list[dict[str, Any]], **kwargs: Any
        ) -> tuple[bool, str, float, dict[str, Any]]:
            return False, "", 0.0, {}

        async def calculate_score(self, instance_id: str, **kwargs: Any) -> float:
            return 0.0

        async def finalize_interaction(self, instance_id: str, **kwargs: Any) -> None:
            return None


THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"


def strip_think(text: str) -> str:
    """What the user sees of an agent turn (src/serve/think.ts, the lab's rule on text).

    A turn that opens with <think> and holds exactly one <think> and one </think> shows only what
    follows </think>; any other turn shows its text with the markers removed.
    """
    body = text.strip()
    if (
        body.startswith(THINK_OPEN)
        and text.count(THINK_OPEN) == 1
        and text.count(THINK_CLOSE) == 1
        and body.find(THINK_CLOSE) > 0
    ):
        return body[body.find(THINK_CLOSE) + len(THINK_CLOSE) :].strip()
    return text.replace(THINK_OPEN, "").replace(THINK_CLOSE, "").strip()


class UsersError(RuntimeError):
    """The users server answered with an error (status and its message)."""

    def __init__(self, status: int, message: str):
        super().__init__(f"{status}: {message}")
        self.status = status


class UsersClient:
    """A small blocking client of the users server's HTTP API."""

    def __init__(self, base_url: str, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def call(self, method: str, path: str, body: Optional[dict[str, Any]] = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(
            self.base_url + path, data=data, method=method, headers={"content-type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                text = res.read().decode("utf-8")
                return json.loads(text) if text else None
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            try:
                message = json.loads(text).get("error", text)
            except ValueError:
                message = text
            raise UsersError(e.code, message) from None

    def start(self, **kwargs: Any) -> dict[str, Any]:
        return self.call("POST", "/v1/dialogues", kwargs)

    def reply(self, dialogue_id: str, reply: str) -> dict[str, Any]:
        return self.call("POST", f"/v1/dialogues/{dialogue_id}/reply", {"reply": reply})

    def get(self, dialogue_id: str) -> dict[str, Any]:
        return self.call("GET", f"/v1/dialogues/{dialogue_id}")

    def delete(self, dialogue_id: str) -> None:
        try:
            self.call("DELETE", f"/v1/dialogues/{dialogue_id}")
        except UsersError as e:
            if e.status != 404:
                raise

    def replay(self, **kwargs: Any) -> dict[str, Any]:
        return self.call("POST", "/v1/replay", kwargs)


class EmpathyUserInteraction(BaseInteraction):
    """One simulated user per verl sample.

    config: `base_url` (default $EMPATHY_USERS_URL or http://127.0.0.1:8787), `timeout` seconds,
    `set` (profile set to look ids up in; default any), `turn_score_scale` (default 0.01: the
    change of -10..+10 becomes -0.1..+0.1, the same unit as the final reward).
    interaction_kwargs per sample: `profile_id`, `seed`, `difficulty`, `mode` (as make_dataset.py writes).
    """

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        url = config.get("base_url") or os.environ.get("EMPATHY_USERS_URL") or "http://127.0.0.1:8787"
        self.client = UsersClient(url, float(config.get("timeout", 30.0)))
        self.set = config.get("set")
        self.turn_score_scale = float(config.get("turn_score_scale", 0.01))
        self._dialogues: dict[str, dict[str, Any]] = {}

    async def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        # urllib blocks; a thread keeps verl's event loop free for the other samples.
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def start_interaction(self, instance_id: Optional[str] = None, **kwargs: Any) -> str:
        if instance_id is None:
            instance_id = str(uuid.uuid4())
        body: dict[str, Any] = {
            "id": instance_id,
            "profileId": kwargs["profile_id"],
            "seed": int(kwargs.get("seed", 0)),
            "difficulty": kwargs.get("difficulty", "moderate"),
        }
        if kwargs.get("mode") is not None:
            body["mode"] = kwargs["mode"]
        if self.set is not None:
            body["set"] = self.set
        started = await self._call(self.client.start, **body)
        self._dialogues[instance_id] = {"opening": started["opening"], "reward": started["reward"], "over": False}
        return instance_id

    async def generate_response(
        self, instance_id: str, messages: list[dict[str, Any]], **kwargs: Any
    ) -> tuple[bool, str, float, dict[str, Any]]:
        d = self._dialogues[instance_id]
        content = ""
        for m in reversed(messages):
            if m.get("role") == "assistant":
                content = m.get("content") or ""
                break
        if d["over"]:
            return True, "", 0.0, {"over": True, "endReason": d.get("endReason")}
        turn = await self._call(self.client.reply, instance_id, strip_think(content))
        d.update(reward=turn["reward"], over=turn["over"], endReason=turn["endReason"])
        extra = {
            "change": turn["change"],
            "emotion": turn["emotion"],
            "band": turn["band"],
            "over": turn["over"],
            "endReason": turn["endReason"],
            "reward": turn["reward"],
        }
        return bool(turn["over"]), turn["line"], turn["change"] * self.turn_score_scale, extra

    async def calculate_score(self, instance_id: str, **kwargs: Any) -> float:
        """Final emotion / 100 (emotion so far while the dialogue runs)."""
        return float(self._dialogues[instance_id]["reward"])

    async def finalize_interaction(self, instance_id: str, **kwargs: Any) -> None:
        if self._dialogues.pop(instance_id, None) is not None:
            await self._call(self.client.delete, instance_id)
