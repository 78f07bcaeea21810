"""verl multi-turn interaction over the lab's simulated users (served by `npm run serve-users`).

`EmpathyUserInteraction` is what verl's multi-turn rollout calls per sample: it starts a dialogue
from the sample's `interaction_kwargs` (profile id, seed, difficulty, mode), sends each assistant
turn (think block stripped as the lab does), returns the user's next line, the turn's emotion
change / 100 as `current_turn_score`, ends when the user leaves, and `calculate_score` gives the
final emotion / 100 (RLVER's reward). Turns of many samples that arrive within a few ms go as one
request (`batch_window_ms`). Standard library only: no install step.

Not here: the engine (TypeScript, src/persona), the dataset (make_dataset.py), verl's config.
"""

from __future__ import annotations

import asyncio
import json
import os
import urllib.error
import urllib.request
import uuid
import weakref
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

    def reply(self, dialogue_id: str, reply: str, appraisal: bool = True) -> dict[str, Any]:
        body: dict[str, Any] = {"reply": reply}
        if not appraisal:
            body["appraisal"] = False
        return self.call("POST", f"/v1/dialogues/{dialogue_id}/reply", body)

    def turns(self, turns: list[dict[str, str]], appraisal: bool = True) -> list[dict[str, Any]]:
        """Many dialogues' replies ({id, reply}) in one request; each result has its own status."""
        body: dict[str, Any] = {"turns": turns}
        if not appraisal:
            body["appraisal"] = False
        return self.call("POST", "/v1/turns", body)["results"]

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


class _Batcher:
    """Turns of one event loop's samples, gathered into POST /v1/turns requests.

    The first turn to arrive opens a window of `window` seconds (or `most` turns fill it first);
    then the turns go as one request, in a thread, and each sample gets its own result back (a turn
    that failed raises UsersError in its sample only). verl awaits generate_response for all the
    samples of a step at once, so a step's turns share a few requests instead of one each.
    """

    def __init__(self, client: UsersClient, window: float, most: int):
        self.client = client
        self.window = window
        self.most = most
        self.waiting: list[tuple[str, str, asyncio.Future[dict[str, Any]]]] = []
        self.timer: Optional[asyncio.TimerHandle] = None

    async def turn(self, dialogue_id: str, reply: str) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[dict[str, Any]] = loop.create_future()
        self.waiting.append((dialogue_id, reply, done))
        if len(self.waiting) >= self.most:
            self._flush()
        elif self.timer is None:
            self.timer = loop.call_later(self.window, self._flush)
        return await done

    def _flush(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        batch, self.waiting = self.waiting, []
        if batch:
            asyncio.get_running_loop().create_task(self._send(batch))

    async def _send(self, batch: list[tuple[str, str, asyncio.Future[dict[str, Any]]]]) -> None:
        try:
            results = await asyncio.to_thread(
                self.client.turns, [{"id": i, "reply": r} for i, r, _ in batch], False
            )
        except BaseException as e:  # noqa: BLE001 - every waiting sample gets the failure
            for _, _, done in batch:
                if not done.done():
                    done.set_exception(e)
            return
        for (_, _, done), result in zip(batch, results):
            if done.done():
                continue
            if result["status"] == 200:
                done.set_result(result)
            else:
                done.set_exception(UsersError(result["status"], result.get("error", "")))


class EmpathyUserInteraction(BaseInteraction):
    """One simulated user per verl sample.

    config: `base_url` (default $EMPATHY_USERS_URL or http://127.0.0.1:8787), `timeout` seconds,
    `set` (profile set to look ids up in; default any), `turn_score_scale` (default 0.01: the
    change of -10..+10 becomes -0.1..+0.1, the same unit as the final reward), `batch_window_ms`
    (default 5: turns that arrive within this many ms of each other go to the server as one
    POST /v1/turns, at most `max_batch_turns`, default 256; 0 sends a request per turn), `turn_cap`
    (replies before the user ends the dialogue, 1..10; default the mode's: train 8, benchmark 10;
    set it to verl's max_assistant_turns when that is above 8).
    interaction_kwargs per sample: `profile_id`, `seed`, `difficulty`, `mode` (as make_dataset.py writes),
    and `turn_cap` to override the config's.
    """

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        url = config.get("base_url") or os.environ.get("EMPATHY_USERS_URL") or "http://127.0.0.1:8787"
        self.client = UsersClient(url, float(config.get("timeout", 30.0)))
        self.set = config.get("set")
        self.turn_score_scale = float(config.get("turn_score_scale", 0.01))
        self.batch_window = float(config.get("batch_window_ms", 5)) / 1000
        self.max_batch_turns = int(config.get("max_batch_turns", 256))
        if self.batch_window < 0 or not 1 <= self.max_batch_turns <= 1024:
            raise ValueError("batch_window_ms must be >= 0 and max_batch_turns 1..1024")
        cap = config.get("turn_cap")
        self.turn_cap = None if cap is None else int(cap)
        if self.turn_cap is not None and not 1 <= self.turn_cap <= 10:
            raise ValueError("turn_cap must be 1..10")
        self._dialogues: dict[str, dict[str, Any]] = {}
        # One batcher per event loop (a batch's futures belong to the loop that made them).
        self._batchers: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Batcher]" = weakref.WeakKeyDictionary()

    async def _turn(self, dialogue_id: str, reply: str) -> dict[str, Any]:
        if self.batch_window == 0:
            return await self._call(self.client.reply, dialogue_id, reply, False)
        loop = asyncio.get_running_loop()
        batcher = self._batchers.get(loop)
        if batcher is None:
            batcher = self._batchers[loop] = _Batcher(self.client, self.batch_window, self.max_batch_turns)
        return await batcher.turn(dialogue_id, reply)

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
        cap = kwargs.get("turn_cap", self.turn_cap)
        if cap is not None:
            body["turnCap"] = int(cap)
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
        turn = await self._turn(instance_id, strip_think(content))
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
