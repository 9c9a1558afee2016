import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { importBatch, readBatchSource } from "@/lib/import";
import type { ImportErrorDetails } from "@/lib/import/types";
import { getPlay, playStep } from "@/lib/annotate/play";
import { submitResponse } from "@/lib/responses/responses";
import { miniEpisodeItem } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode-item";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { image, jsonl, removeTempFolders, writeFolder } from "@/tests/fixtures/import-batches";

// The route handlers run as the signed-in annotator: only the session lookup is replaced.
const session = vi.hoisted(() => ({ user: null as null | { id: string; role: "ANNOTATOR" } }));
vi.mock("@/lib/auth/session", () => ({
  requireRole: async () => {
    if (!session.user) throw new (await import("@/lib/errors")).AppError("UNAUTHORIZED", "Sign in first");
    return session.user;
  },
}));

const { GET: getAssignmentRoute } = await import("@/app/api/annotate/assignments/[id]/route");
const { GET: getPlayRoute, POST: postPlayRoute } = await import("@/app/api/annotate/assignments/[id]/play/route");
const { GET: getNextRoute } = await import("@/app/api/annotate/studies/[slug]/next/route");

afterAll(async () => {
  await removeTempFolders();
  await disconnectDb();
});

/** The mini episode with hidden content no observation may reveal. */
function secretEpisode() {
  const line = miniEpisodeItem("ep-secret");
  line.key.world.objects.cup_01.state.secret = "SecretState_cup";
  line.key.tasks[1].goal.push("cup_01.secret = SecretState_cup");
  return line;
}
const SECRETS = [
  "SecretState_cup",
  "secret",
  "portable",
  "whole",
  "reference",
  "keyActions",
  "bread_slice_01.area = counter",
  "x.area = here",
  '"world"',
  '"rules"',
  "held",
];

async function importEpisode(line: ReturnType<typeof miniEpisodeItem>, studySlug: string) {
  const folder = await writeFolder({ "items.jsonl": jsonl([line]), "img/counter.png": await image("counter"), "img/drawer.png": await image("drawer") });
  return importBatch({ source: await readBatchSource({ folder }), studySlug });
}

async function setup() {
  const study = await createStudy();
  await db.study.update({ where: { id: study.id }, data: { status: "OPEN" } });
  const annotator = await createUser("ANNOTATOR");
  await addMember(study.id, annotator.id);
  return { study, annotator };
}

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (id: string, body: unknown) =>
  new Request(`http://test/api/annotate/assignments/${id}/play`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("ego2world-play on the server", () => {
  beforeEach(async () => {
    await resetDatabase();
    session.user = null;
  });

  it("the importer rejects an episode whose reference is refused, naming task and action, and stores nothing", async () => {
    const { study } = await setup();
    const broken = miniEpisodeItem("ep-broken");
    broken.key.tasks[1].reference = ["go_to(drawer)", "slice(bread_01, knife_01)"];
    const error = await importEpisode(broken, study.slug).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AppError);
    const issues = ((error as AppError).details as ImportErrorDetails).errors;
    expect(issues).toEqual([
      {
        file: "items.jsonl",
        line: 1,
        field: "key.tasks[1].reference[1]",
        message: 'task "t2", action 2 "slice(bread_01, knife_01)": the reference action is refused (bread_01.area = here)',
      },
    ]);
    expect(await db.item.count()).toBe(0);
    expect(await db.batch.count()).toBe(0);
  });

  it("never sends the hidden world, rules, goals or reference to the annotator: next, assignment view, play GET and POST", async () => {
    const { study, annotator } = await setup();
    await importEpisode(secretEpisode(), study.slug);
    session.user = { id: annotator.id, role: "ANNOTATOR" };
    const bodies: string[] = [];
    const read = async (response: Response) => {
      const text = await response.text();
      bodies.push(text);
      expect(response.status, text).toBe(200);
      return JSON.parse(text) as Record<string, unknown>;
    };

    const next = await read(
      await getNextRoute(new Request(`http://test/api/annotate/studies/${study.slug}/next`), { params: Promise.resolve({ slug: study.slug }) }),
    );
    expect(next.status).toBe("item");
    const assignmentId = (next.assignment as { assignmentId: string }).assignmentId;
    const view = await read(await getAssignmentRoute(new Request("http://test"), params(assignmentId)));
    expect(view.kind).toBe("ego2world-play");

    const start = await read(await getPlayRoute(new Request("http://test"), params(assignmentId)));
    expect(start).toMatchObject({ seq: 0, view: { area: "counter", task: 0, taskCount: 2 } });
    const actions = [
      { type: "act", action: "pick_up(knife_01)" }, // refused: not here
      { type: "act", action: "go_to(drawer)" },
      { type: "act", action: "pick_up(knife_01)" },
      { type: "done" },
      { type: "act", action: "go_to(counter)" },
      { type: "act", action: "pick_up(cup_01)" }, // refused: the hand is full
      { type: "act", action: "slice(bread_01, knife_01)" },
      { type: "done" },
    ];
    for (const [i, action] of actions.entries()) await read(await postPlayRoute(post(assignmentId, { seq: i + 1, action }), params(assignmentId)));
    const resumed = await read(await getPlayRoute(new Request("http://test"), params(assignmentId)));
    expect(resumed).toMatchObject({ seq: 8, view: { finished: true } });

    // a malformed action is a 4xx naming the field, and changes nothing
    const refused = await postPlayRoute(post(assignmentId, { seq: 9, action: { type: "teleport" } }), params(assignmentId));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await db.playStep.count({ where: { assignmentId } })).toBe(9);

    for (const body of bodies) for (const secret of SECRETS) expect(body, `a response contains ${secret}`).not.toContain(secret);
    // the server kept the world: it holds the secret and the slice
    const stored = await db.assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { playState: true } });
    expect(JSON.stringify(stored.playState)).toContain("SecretState_cup");
    expect(JSON.stringify(stored.playState)).toContain("bread_slice_01");
  });

  it("applies a step retried with the same seq once, and scores the steps actually played, not the browser's claim", async () => {
    const { study, annotator } = await setup();
    await importEpisode(miniEpisodeItem("ep-retry"), study.slug);
    const item = await db.item.findFirstOrThrow({ select: { id: true } });
    const assignment = await db.assignment.create({ data: { studyId: study.id, itemId: item.id, userId: annotator.id, position: 0 } });
    await getPlay(annotator.id, assignment.id);
    await playStep(annotator.id, assignment.id, { seq: 1, action: { type: "act", action: "go_to(drawer)" } });
    // the same pick_up sent three times at once (a retried request): applied once, so the hand is not "full" on a second run
    const copies = await Promise.all(
      [0, 1, 2].map(() => playStep(annotator.id, assignment.id, { seq: 2, action: { type: "act", action: "pick_up(knife_01)" } })),
    );
    expect(copies.map((copy) => copy.valid)).toEqual([true, true, true]);
    expect(copies.filter((copy) => !copy.duplicate)).toHaveLength(1);
    expect(await db.playStep.count({ where: { assignmentId: assignment.id } })).toBe(3);
    await playStep(annotator.id, assignment.id, { seq: 3, action: { type: "done" } });
    await playStep(annotator.id, assignment.id, { seq: 4, action: { type: "act", action: "slice(bread_01, knife_01)" } }); // refused in the drawer
    await playStep(annotator.id, assignment.id, { seq: 5, action: { type: "done" } });

    const ack = await submitResponse(annotator.id, {
      assignmentId: assignment.id,
      clientId: crypto.randomUUID(),
      // the browser claims a perfect play: ignored
      answer: {
        tasks: [
          { id: "t1", actions: ["go_to(drawer)", "pick_up(knife_01)", "go_to(counter)"] },
          { id: "t2", actions: ["slice(bread_01, knife_01)"] },
        ],
      },
      confidence: 3,
      wallMs: 1000,
      activeMs: 1000,
      submitSeq: 0,
    });
    expect(ack.duplicate).toBe(false);
    const response = await db.response.findFirstOrThrow({ where: { assignmentId: assignment.id }, select: { answer: true, score: true, correct: true } });
    expect(response.answer).toEqual({
      tasks: [
        { id: "t1", actions: ["go_to(drawer)", "pick_up(knife_01)"] },
        { id: "t2", actions: ["slice(bread_01, knife_01)"] },
      ],
    });
    expect(response.score).toMatchObject({
      TSR: 0.5,
      validity: 2 / 3,
      tasks: [
        { id: "t1", success: true, accepted: [true, true] },
        { id: "t2", success: false, accepted: [false] },
      ],
    });
    expect(response.correct).toBe(false);
    // no step after submitting
    await expect(playStep(annotator.id, assignment.id, { seq: 6, action: { type: "act", action: "go_to(counter)" } })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });
});
