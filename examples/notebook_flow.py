#!/usr/bin/env python3
"""A study run from a notebook, end to end, with an API token and Python's standard library only.

Creates a study, imports an item batch (a benchmark's release as it is, or items.jsonl) and polls
the import job to its end, adds an annotator, reads progress and the dashboard, imports a model
run (answers.jsonl or the benchmark's own output file), prepares an export in the background and
downloads it. The job states it waits through are checked against the server's OpenAPI document.
Any answer it did not expect stops it with a message naming the call, and exit status 1.

    YARDSTICK_URL=http://localhost:3000 YARDSTICK_TOKEN=ys_... python3 examples/notebook_flow.py \\
        --batch release/ --text-only --member "Ana Ruiz" --run outputs.json --run-name my-model

The token is a researcher's (or an admin's) with the read and manage scopes (docs/api.md, Tokens).
"""

import argparse
import hashlib
import io
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile

# What this script knows of the jobs it waits for; the server's OpenAPI document must agree.
IMPORT_WAITING = {"RUNNING"}
IMPORT_ENDED = {"SUCCEEDED", "FAILED"}
EXPORT_WAITING = {"QUEUED", "RUNNING"}
EXPORT_ENDED = {"SUCCEEDED", "FAILED", "EXPIRED"}


class Stop(Exception):
    """An answer the flow did not expect: the message says which call and what came back."""


class Api:
    def __init__(self, base_url, token, timeout):
        self.base = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def call(self, method, path, expect, json_body=None, form=None, raw=False):
        """One request; the answer's status must be in `expect`. Returns (status, headers, body)."""
        headers = {"Authorization": "Bearer " + self.token, "Accept": "application/json"}
        data = None
        if json_body is not None:
            data = json.dumps(json_body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        elif form is not None:
            data, headers["Content-Type"] = multipart(form)
        url = path if path.startswith("http") else self.base + path
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status, answer_headers, body = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, answer_headers, body = error.code, error.headers, error.read()
        except urllib.error.URLError as error:
            raise Stop("%s %s: cannot reach the server at %s (%s)" % (method, path, self.base, error.reason))
        except OSError as error:
            # a timeout or a connection dropped half way: name the call, not a traceback
            raise Stop("%s %s: %s" % (method, path, error))
        if status not in expect:
            raise Stop("%s %s answered %d, expected %s: %s" % (method, path, status, " or ".join(map(str, expect)), describe(body)))
        if raw:
            return status, answer_headers, body
        try:
            return status, answer_headers, json.loads(body.decode("utf-8")) if body else None
        except ValueError:
            raise Stop("%s %s answered %d with a body that is not JSON: %r" % (method, path, status, body[:200]))


def describe(body):
    """The error of an error body ({error, code?, issues?}), or the start of whatever came."""
    try:
        value = json.loads(body.decode("utf-8"))
    except ValueError:
        return repr(body[:300])
    if isinstance(value, dict) and "error" in value:
        text = str(value["error"])
        if value.get("code"):
            text += " (%s)" % value["code"]
        return text
    return json.dumps(value)[:300]


def multipart(fields):
    """multipart/form-data of [(name, value)] where a value is text or (file name, bytes, type)."""
    boundary = "----yardstick-" + uuid.uuid4().hex
    out = io.BytesIO()
    for name, value in fields:
        out.write(("--%s\r\n" % boundary).encode())
        if isinstance(value, tuple):
            file_name, content, content_type = value
            out.write(('Content-Disposition: form-data; name="%s"; filename="%s"\r\n' % (name, file_name)).encode())
            out.write(("Content-Type: %s\r\n\r\n" % content_type).encode())
            out.write(content)
        else:
            out.write(('Content-Disposition: form-data; name="%s"\r\n\r\n' % name).encode())
            out.write(str(value).encode("utf-8"))
        out.write(b"\r\n")
    out.write(("--%s--\r\n" % boundary).encode())
    return out.getvalue(), "multipart/form-data; boundary=" + boundary


def batch_upload(path):
    """A folder is sent as a .zip of its files; a .zip or a single file as it is."""
    if os.path.isdir(path):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for folder, _dirs, files in os.walk(path):
                for name in sorted(files):
                    full = os.path.join(folder, name)
                    archive.write(full, os.path.relpath(full, path).replace(os.sep, "/"))
        return os.path.basename(os.path.normpath(path)) + ".zip", buffer.getvalue(), "application/zip"
    with open(path, "rb") as handle:
        content = handle.read()
    kind = "application/zip" if path.lower().endswith(".zip") else "application/octet-stream"
    return os.path.basename(path), content, kind


def resolve(doc, schema):
    while isinstance(schema, dict) and "$ref" in schema:
        node = doc
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def job_states(doc, path, method, status):
    """The enum of `job.status` in one operation's answer, as the OpenAPI document gives it."""
    try:
        schema = doc["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]
        job = resolve(doc, resolve(doc, schema)["properties"]["job"])
        return set(resolve(doc, job["properties"]["status"])["enum"])
    except (KeyError, TypeError) as error:
        raise Stop("the OpenAPI document gives no job states for %s %s (%s missing)" % (method.upper(), path, error))


def check_states(doc):
    for what, path, known in [
        ("import", "/api/admin/import/jobs/{id}", IMPORT_WAITING | IMPORT_ENDED),
        ("export", "/api/studies/{slug}/export-jobs/{id}", EXPORT_WAITING | EXPORT_ENDED),
    ]:
        states = job_states(doc, path, "get", "200")
        if states != known:
            raise Stop("the server's %s job states are %s; this script knows %s: update it" % (what, sorted(states), sorted(known)))


def poll(api, path, waiting, deadline, what):
    """GET `path` until its job leaves the waiting states; the job."""
    delay = 0.2
    while True:
        _, _, body = api.call("GET", path, (200,))
        job = body["job"]
        if job["status"] not in waiting:
            return job
        if time.monotonic() > deadline:
            raise Stop("%s is still %s after the timeout (%s)" % (what, job["status"], path))
        time.sleep(delay)
        delay = min(delay * 1.5, 2.0)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Run a Yardstick study from a notebook with an API token (docs/api.md).")
    parser.add_argument("--url", default=os.environ.get("YARDSTICK_URL", "http://localhost:3000"), help="the server (env YARDSTICK_URL)")
    parser.add_argument("--token", default=os.environ.get("YARDSTICK_TOKEN"), help="a read + manage API token (env YARDSTICK_TOKEN)")
    parser.add_argument("--slug", default="notebook-" + time.strftime("%Y%m%d-%H%M%S"), help="the new study's slug")
    parser.add_argument("--title", default="From a notebook")
    parser.add_argument("--overlap", type=int, default=1, help="people per item (k)")
    parser.add_argument("--batch", required=True, help="the items: a release folder (sent zipped), a .zip or one file")
    parser.add_argument("--skip-invalid", action="store_true", help="import the good entries and list the skipped (skipInvalid=1)")
    parser.add_argument("--text-only", action="store_true", help="import questions without the media the batch lacks (textOnly=1)")
    parser.add_argument("--member", action="append", default=[], help="an annotator to add, by user id or name (repeatable)")
    parser.add_argument("--run", help="a model run: answers.jsonl or the benchmark's own output file")
    parser.add_argument("--run-name", default="model", help="the model run's name")
    parser.add_argument("--export", default="predictions", help="the table to export: items, responses, events, annotators, predictions")
    parser.add_argument("--format", default="csv", choices=["csv", "jsonl"])
    parser.add_argument("--out", help="where to write the export (default: its file name, here)")
    parser.add_argument("--wait", type=float, default=300, help="seconds to wait for each job")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("an API token is needed: --token or YARDSTICK_TOKEN")

    # the local files first: one that cannot be read stops the flow before anything is made
    upload = batch_upload(args.batch)
    run_file = None
    if args.run:
        with open(args.run, "rb") as handle:
            run_file = (os.path.basename(args.run), handle.read(), "application/octet-stream")

    api = Api(args.url, args.token, timeout=60)
    slug = urllib.parse.quote(args.slug, safe="")
    summary = []

    _, _, doc = api.call("GET", "/api/openapi.json", (200,))
    check_states(doc)

    _, _, study = api.call("POST", "/api/studies", (201,), json_body={"title": args.title, "slug": args.slug, "overlap": args.overlap})
    summary.append("study: %s" % study["slug"])

    form = [("study", args.slug), ("background", "1")]
    if args.skip_invalid:
        form.append(("skipInvalid", "1"))
    if args.text_only:
        form.append(("textOnly", "1"))
    form.append(("files", upload))
    _, _, started = api.call("POST", "/api/admin/import", (202,), form=form)
    job = poll(api, "/api/admin/import/jobs/%s" % started["job"]["id"], IMPORT_WAITING, time.monotonic() + args.wait, "the import")
    outcome = job.get("outcome") or {}
    if job["status"] != "SUCCEEDED" or not outcome.get("ok"):
        raise Stop("the import ended %s: %s" % (job["status"], outcome.get("error", "no outcome")))
    result = outcome["result"]
    skipped = len(result.get("skipped") or [])
    summary.append("import: %s, %d items (%d new, %d skipped)" % (job["status"], result["itemCount"], result["newItems"], skipped))

    if args.member:
        _, _, listing = api.call("GET", "/api/studies/%s/members" % slug, (200,))
        candidates = listing.get("candidates")
        if candidates is None:
            raise Stop("this token's user may not add members to %s (an admin or the study's owner may)" % args.slug)
        ids = []
        for wanted in args.member:
            match = [c["id"] for c in candidates if wanted in (c["id"], c["name"])]
            if len(match) != 1:
                raise Stop("%s annotators who could be added match %r" % ("no" if not match else "several", wanted))
            ids.append(match[0])
        _, _, added = api.call("POST", "/api/studies/%s/members" % slug, (200,), json_body={"userIds": ids})
        summary.append("members: %d added" % added["added"])

    _, _, progress = api.call("GET", "/api/studies/%s/progress" % slug, (200,))
    summary.append("progress: %d of %d answers, %d items" % (progress["done"], progress["expected"], progress["items"]))

    if run_file:
        run_form = [("name", args.run_name), ("file", run_file)]
        _, _, run = api.call("POST", "/api/studies/%s/model-runs" % slug, (201,), form=run_form)
        summary.append("model run: %s, format %s, %d scored, %d unparsed" % (args.run_name, run["format"], run["scored"], run["unparsed"]))

    # a large study's dashboard may answer 202 while the worker computes it: ask again as told
    deadline = time.monotonic() + args.wait
    while True:
        status, headers, dashboard = api.call("GET", "/api/studies/%s/dashboard" % slug, (200, 202))
        if status == 200:
            break
        if time.monotonic() > deadline:
            raise Stop("the dashboard is still being computed after the timeout")
        time.sleep(float(headers.get("Retry-After") or 5))
    models = sorted(model["name"] for model in dashboard.get("models", []))
    summary.append("dashboard: %d items, models %s" % (dashboard["progress"]["items"], ", ".join(models) or "none"))

    _, _, started = api.call("POST", "/api/studies/%s/export-jobs" % slug, (202,), json_body={"table": args.export, "format": args.format})
    job = poll(api, "/api/studies/%s/export-jobs/%s" % (slug, started["job"]["id"]), EXPORT_WAITING, time.monotonic() + args.wait, "the export")
    if job["status"] != "SUCCEEDED":
        raise Stop("the export ended %s: %s" % (job["status"], job.get("error")))
    download = job.get("downloadUrl") or "/api/studies/%s/export-jobs/%s/download" % (slug, job["id"])
    _, _, content = api.call("GET", download, (200,), raw=True)
    if job.get("sha256") and hashlib.sha256(content).hexdigest() != job["sha256"]:
        raise Stop("the downloaded export's sha256 is not the job's %s" % job["sha256"])
    out = args.out or job["fileName"]
    with open(out, "wb") as handle:
        handle.write(content)
    summary.append("export: %s, %d rows, %d bytes, sha256 checked -> %s" % (job["fileName"], job["rows"], len(content), out))

    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (Stop, OSError) as stop:
        # OSError: a local file (--batch, --run, --out) that cannot be read or written
        print("notebook_flow: %s" % stop, file=sys.stderr)
        sys.exit(1)
