#!/usr/bin/env python3
"""Plays a Yardstick study with a chat model behind an OpenAI-compatible endpoint.

Standard library only. Usage:

    OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=sk-... OPENAI_MODEL=gpt-4o \\
    YARDSTICK_URL=http://localhost:3000 YARDSTICK_TOKEN=ys_... python3 examples/agent_openai.py --study <slug>

The same loop as examples/agent.py (next -> view -> play -> events -> response); the policy asks
the model. The prompt holds the item's public view as JSON (what a person sees, never a key), its
images as data URLs, and the item's agent contract from the server: what an answer (and an
action) means and their JSON Schemas. Nothing here knows a task kind. The model replies with one
JSON object: {"action": ...} to act in an interactive item, {"answer": ...} to answer. A reply
that cannot be read falls back to the server's example action or answer, so a run always ends.
docs/api.md.
"""

import argparse
import json
import os
import re
import sys
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ beside the examples
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from agent import Client, TrivialPolicy, contract_of, run  # noqa: E402


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


def contract_text(contract, acting):
    """What the server says about answering (and acting in) this item: the meaning and the JSON Schemas."""
    text = f"What an answer means: {contract.get('answerInstructions', '')}\nThe answer's JSON Schema: {json.dumps(contract.get('answerSchema', {}))}\n"
    if acting:
        if contract.get("actionInstructions"):
            text += f"What an action means: {contract['actionInstructions']}\n"
        text += f"An action's JSON Schema: {json.dumps(contract.get('actionSchema', {}))}\n"
    return text


class OpenAIPolicy(TrivialPolicy):
    def __init__(self, client, base_url, api_key, model, max_steps=30, max_images=8):
        self.client = client
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.model = model
        self.max_steps = max_steps
        self.max_images = max_images
        self.pending_answer = None

    def chat(self, assignment, play_view, acting, instruction):
        item_view = assignment["view"]
        content = [
            {
                "type": "text",
                "text": f"Task kind: {assignment['kind']}.\nThe item, as shown to a person (JSON):\n{json.dumps(item_view)}\n"
                + (f"What you see now (JSON):\n{json.dumps(play_view)}\n" if play_view is not None else "")
                + contract_text(contract_of(assignment), acting)
                + instruction,
            }
        ]
        for path in image_paths([item_view, play_view], [])[: self.max_images]:
            url = self.client.data_url(path)
            if url:
                content.append({"type": "image_url", "image_url": {"url": url}})
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

    def next_action(self, assignment, play, steps_taken):
        if steps_taken >= self.max_steps or not play.get("canAct"):
            return None
        reply = self.chat(assignment, play["view"], True, 'Reply with {"action": <one action>} to act, or {"answer": <the answer>} when you are ready to answer.')
        if "answer" in reply:
            self.pending_answer = reply["answer"]
            return None
        action = reply.get("action")
        return action if isinstance(action, dict) else super().next_action(assignment, play, steps_taken)

    def answer(self, assignment, play_view):
        pending, self.pending_answer = self.pending_answer, None
        if contract_of(assignment).get("answerFromActions"):
            return super().answer(assignment, play_view)  # the server builds it from the recorded actions
        if isinstance(pending, dict):
            return pending
        reply = self.chat(assignment, play_view, False, 'Answer now. Reply with {"answer": <the answer>}.')
        answer = reply.get("answer")
        return answer if isinstance(answer, dict) else super().answer(assignment, play_view)


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
