#!/usr/bin/env python3
"""Plays a Yardstick study with a chat model behind an OpenAI-compatible endpoint.

Standard library only. Usage:

    OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=sk-... OPENAI_MODEL=gpt-4o \\
    YARDSTICK_URL=http://localhost:3000 YARDSTICK_TOKEN=ys_... python3 examples/agent_openai.py --study <slug>

The same loop as examples/agent.py (next -> view -> play -> events -> response); the policy asks
the model. The prompt holds the item's public view as JSON (what a person sees, never a key) and
its images as data URLs; the model replies with one JSON object: {"action": ...} to act in an
interactive item, {"answer": ...} to answer. A reply that cannot be read falls back to the trivial
policy's move, so a run always ends. docs/api.md.
"""

import argparse
import json
import os
import re
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from agent import Client, TrivialPolicy, run  # noqa: E402

ANSWER_FORMATS = {
    "enact-forward": '{"order": [i, ...]}: candidate indices (0-based) in the order they happen',
    "enact-inverse": '{"order": [i, ...]}: candidate indices (0-based) in the order they happen',
    "gridwm-judge": '{"verdict": "Success" | "Fail"}',
    "gridwm-next-obs": '{"choice": "A" | "B" | "C" | "D"}',
    "esi-explore": '{"choice": "<one option, verbatim>"} (or a map part -> option for questions with parts)',
    "ego2world-play": '{"tasks": []} (the server rebuilds the answer from your actions)',
    "explore-scene": '{"objects": [], "text": "<your description>"}',
}

ACTION_FORMATS = {
    "esi-explore": '{"action": {"name": "<move_forward|turn_left|pick_up|...>", "args": [...]}} or {"answer": ...} when ready',
    "ego2world-play": '{"action": {"type": "act", "action": "<skill(args)>"}} or {"action": {"type": "done"}} when the task is done',
}


def image_paths(value, found):
    """Every image path of the view that the server serves (/api/assets/...)."""
    if isinstance(value, str) and value.startswith("/api/"):
        found.append(value)
    elif isinstance(value, list):
        for entry in value:
            image_paths(entry, found)
    elif isinstance(value, dict):
        for entry in value.values():
            image_paths(entry, found)
    return found


def parse_json_object(text):
    """The first JSON object in a reply (models wrap JSON in prose or code fences)."""
    for match in re.finditer(r"\{", text):
        depth = 0
        for end in range(match.start(), len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                try:
                    return json.loads(text[match.start() : end + 1])
                except ValueError:
                    break
    return None


class OpenAIPolicy(TrivialPolicy):
    def __init__(self, client, base_url, api_key, model, max_steps=30, max_images=8):
        self.client = client
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.model = model
        self.max_steps = max_steps
        self.max_images = max_images
        self.pending_answer = None

    def chat(self, kind, item_view, play_view, instruction):
        content = [
            {
                "type": "text",
                "text": f"Task kind: {kind}.\nThe item, as shown to a person (JSON):\n{json.dumps(item_view)}\n"
                + (f"What you see now (JSON):\n{json.dumps(play_view)}\n" if play_view is not None else "")
                + instruction,
            }
        ]
        for path in image_paths([item_view, play_view], [])[: self.max_images]:
            content.append({"type": "image_url", "image_url": {"url": self.client.data_url(path)}})
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": "You take part in a benchmark study. Reply with one JSON object and nothing else."},
                {"role": "user", "content": content},
            ],
        }
        request = urllib.request.Request(self.base_url + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST")
        request.add_header("Content-Type", "application/json")
        if self.api_key:
            request.add_header("Authorization", "Bearer " + self.api_key)
        with urllib.request.urlopen(request, timeout=300) as response:
            reply = json.loads(response.read().decode("utf-8"))
        return parse_json_object(reply["choices"][0]["message"]["content"] or "") or {}

    def next_action(self, kind, item_view, play_view, steps_taken):
        if steps_taken >= self.max_steps or (kind == "ego2world-play" and play_view.get("finished")):
            return None
        if kind == "esi-explore" and play_view.get("mode") != "active":
            return None
        reply = self.chat(kind, item_view, play_view, f"Reply with {ACTION_FORMATS.get(kind, '{}')}.")
        if "answer" in reply:
            self.pending_answer = reply["answer"]
            return None
        action = reply.get("action")
        return action if isinstance(action, dict) else super().next_action(kind, item_view, play_view, steps_taken)

    def answer(self, kind, item_view, play_view):
        pending, self.pending_answer = self.pending_answer, None
        if isinstance(pending, dict):
            return pending
        if kind == "ego2world-play":
            return {"tasks": []}
        reply = self.chat(kind, item_view, play_view, f"Answer now. Reply with {{\"answer\": {ANSWER_FORMATS.get(kind, '...')}}}.")
        answer = reply.get("answer")
        return answer if isinstance(answer, dict) else super().answer(kind, item_view, play_view)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--study", required=True)
    parser.add_argument("--url", default=os.environ.get("YARDSTICK_URL", "http://localhost:3000"))
    parser.add_argument("--max-items", type=int, default=None)
    parser.add_argument("--max-steps", type=int, default=30, help="actions per interactive item at most")
    args = parser.parse_args(argv)
    token = os.environ.get("YARDSTICK_TOKEN")
    base_url = os.environ.get("OPENAI_BASE_URL")
    model = os.environ.get("OPENAI_MODEL")
    if not token or not base_url or not model:
        parser.error("set YARDSTICK_TOKEN, OPENAI_BASE_URL and OPENAI_MODEL (OPENAI_API_KEY when the endpoint needs one)")
    client = Client(args.url, token)
    policy = OpenAIPolicy(client, base_url, os.environ.get("OPENAI_API_KEY", ""), model, args.max_steps)
    outcome = run(client, args.study, policy, args.max_items)
    print(json.dumps(outcome))
    return 0 if outcome["status"] in ("done", "quota", "stopped") else 1


if __name__ == "__main__":
    sys.exit(main())
