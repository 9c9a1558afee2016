#!/usr/bin/env python3
"""Plays a Yardstick study as a model agent, through the same API a person's browser uses.

Standard library only. Usage:

    YARDSTICK_URL=http://localhost:3000 YARDSTICK_TOKEN=ys_... python3 examples/agent.py --study <slug>

The token is an agent's "play" token (a study's Agents page, or POST /api/studies/<slug>/agents).
The loop: GET next -> the item's public view and its agent contract (`assignment.agent`) -> for
interactive items (the contract says so) GET play and one POST play per action -> the trajectory
events -> POST responses. The agent knows no task kind: the contract gives the answer's JSON
Schema, what an answer means, and a trivial example answer; the play endpoints give whether the
episode takes another action and an example action. The server stores and scores the answers as
a person's; the answer key never reaches the agent. The policy here is trivial (`TrivialPolicy`:
the server's examples); examples/agent_openai.py replaces it with a chat model. docs/api.md.
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


class Client:
    """JSON over HTTP with the bearer token; waits and retries on 503, and on 429 with Retry-After (a rate limit; a 429 without it, the study's cap on agent steps, is final)."""

    def __init__(self, url, token, retries=8):
        self.url = url.rstrip("/")
        self.token = token
        self.retries = retries

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(self.url + path, data=data, method=method)
            request.add_header("Authorization", "Bearer " + self.token)
            if data is not None:
                request.add_header("Content-Type", "application/json")
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    text = response.read().decode("utf-8")
                    return json.loads(text) if text else None
            except urllib.error.HTTPError as error:
                text = error.read().decode("utf-8", "replace")
                retry_after = error.headers.get("Retry-After")
                if (error.code == 503 or (error.code == 429 and retry_after)) and attempt < self.retries:
                    wait = float(retry_after or 1)
                    time.sleep(min(wait, 30))
                    continue
                try:
                    parsed = json.loads(text)
                except ValueError:
                    parsed = text
                raise ApiError(error.code, parsed) from None
        raise RuntimeError("unreachable")

    def data_url(self, image_path):
        """An image of the view (a /api/assets/... path) as a data: URL, for models that take images inline; None for another asset (a video)."""
        import base64

        request = urllib.request.Request(self.url + image_path)
        request.add_header("Authorization", "Bearer " + self.token)
        with urllib.request.urlopen(request, timeout=60) as response:
            kind = response.headers.get("Content-Type", "image/png")
            if not kind.startswith("image/"):
                return None
            return f"data:{kind};base64,{base64.b64encode(response.read()).decode('ascii')}"


def contract_of(assignment):
    """The item's agent contract (`assignment.agent`): how to answer it, whatever its kind."""
    return assignment.get("agent") or {}


class TrivialPolicy:
    """A baseline that needs no model: the example answer and actions of the agent contract, which each kind computes from the public view."""

    def next_action(self, assignment, play, steps_taken):
        """The next action of an interactive item, or None to stop acting and answer. `play`: the last play answer (view, canAct, exampleAction)."""
        return play.get("exampleAction") if play.get("canAct") else None

    def answer(self, assignment, play_view):
        """The answer to submit, or None when there is none (the item is then skipped)."""
        return contract_of(assignment).get("exampleAnswer")

    def confidence(self, scale):
        return 50 if scale == "PERCENT" else 3


def play_item(client, policy, assignment, scale, log):
    """One item: its trajectory events, its actions, its answer. Returns False when the policy cannot answer it."""
    aid = assignment["assignmentId"]
    started = time.time()
    events = []
    seq = len(assignment.get("history") or [])

    def event(kind_of_event, payload):
        nonlocal seq
        events.append({"assignmentId": aid, "seq": seq, "type": kind_of_event, "payload": payload, "clientTime": int(time.time() * 1000)})
        seq += 1

    event("item_shown", {"kind": assignment["kind"], "resumed": seq > 0})
    play_view = None
    if contract_of(assignment).get("interactive"):
        play = client.call("GET", f"/api/annotate/assignments/{aid}/play")
        play_view = play["view"]
        last = play["seq"]
        steps = len(play["steps"])
        while True:
            action = policy.next_action(assignment, play, steps)
            if action is None:
                break
            play = client.call("POST", f"/api/annotate/assignments/{aid}/play", {"seq": last + 1, "action": action})
            last = play["seq"]
            play_view = play["view"]
            steps += 1
            event("play_step", {"seq": play["seq"], "action": action, "valid": play["valid"]})
            log(f"  step {play['seq']}: {json.dumps(action)} -> {'ok' if play['valid'] else play['message']}")
    answer = policy.answer(assignment, play_view)
    if answer is None:
        log(f"  no answer for this item ({assignment['kind']}): skipped")
        return False
    confidence = policy.confidence(scale)
    client_id = str(uuid.uuid4())
    submitted = {"order": answer["order"]} if "order" in answer and len(answer) == 1 else {"answer": answer}
    event("submitted", {**submitted, "confidence": confidence, "clientId": client_id})
    for start in range(0, len(events), 500):
        client.call("POST", "/api/annotate/events", {"events": events[start : start + 500]})
    elapsed = int((time.time() - started) * 1000)
    ack = client.call(
        "POST",
        "/api/annotate/responses",
        {"assignmentId": aid, "clientId": client_id, "answer": answer, "confidence": confidence, "wallMs": elapsed, "activeMs": elapsed, "submitSeq": seq - 1},
    )
    log(f"  answered {json.dumps(answer)[:120]} (response {ack['responseId']})")
    return True


def run(client, study, policy, max_items=None, log=print):
    studies = client.call("GET", "/api/annotate/studies")
    listed = [s for s in (studies.get("studies", studies) if isinstance(studies, dict) else studies) if s.get("slug") == study]
    scale = listed[0].get("confidenceScale", "LIKERT_5") if listed else "LIKERT_5"
    skipped = []
    answered = 0
    while max_items is None or answered < max_items:
        query = f"?exclude={','.join(skipped)}" if skipped else ""
        nxt = client.call("GET", f"/api/annotate/studies/{study}/next{query}")
        status = nxt["status"]
        if status == "wait":
            if skipped:
                # nothing to hand out but the items skipped here (excluded above): the run is over
                log(f"study {study}: only skipped items are left")
                return {"status": "done", "answered": answered, "skipped": len(skipped)}
            time.sleep(1)
            continue
        if status != "item":
            log(f"study {study}: {status}")
            return {"status": status, "answered": answered, "skipped": len(skipped)}
        assignment = nxt["assignment"]
        log(f"item {assignment['assignmentId']} ({assignment['kind']})")
        if play_item(client, policy, assignment, scale, log):
            answered += 1
        else:
            skipped.append(assignment["assignmentId"])
    return {"status": "stopped", "answered": answered, "skipped": len(skipped)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--study", required=True, help="the study's slug")
    parser.add_argument("--url", default=os.environ.get("YARDSTICK_URL", "http://localhost:3000"))
    parser.add_argument("--max-items", type=int, default=None)
    args = parser.parse_args(argv)
    token = os.environ.get("YARDSTICK_TOKEN")
    if not token:
        parser.error("set YARDSTICK_TOKEN to the agent's play token")
    outcome = run(Client(args.url, token), args.study, TrivialPolicy(), args.max_items)
    print(json.dumps(outcome))
    return 0 if outcome["status"] in ("done", "quota", "stopped") else 1


if __name__ == "__main__":
    sys.exit(main())
