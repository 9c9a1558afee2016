import { createHash, randomUUID } from "node:crypto";
import sharp from "sharp";
import { coffeeEpisode } from "../scripts/demo-data/ego2world/episodes";
import { episodeItem } from "../scripts/demo-data/ego2world/generate-ego2world-batch";
import { e2eDb } from "./db";
import { e2eUsers, type E2eUserName } from "./users";

/**
 * One item per registered task kind for the answer-key leak test (e2e/annotate-security.e2e.ts):
 * valid for the kind (tests/kind-fixtures.test.ts checks each against the kind's own
 * schemas), with distinctive strings that exist only in its key (`secrets`), an answer to submit,
 * and for interactive kinds the actions to play. The leak test iterates over the registry
 * (lib/tasks/index.ts): a kind without a builder here fails it, by name.
 */

export interface KindFixture {
  public: Record<string, unknown>;
  key: Record<string, unknown>;
  /** text that exists only in the key: none of it may reach an annotator's browser */
  secrets: string[];
  /** JSON fragments that would give the key away (e.g. the right letter as the key states it) */
  forbidden?: string[];
  /** a valid, wrong where possible, answer (interactive kinds: what the browser submits) */
  answer: unknown;
  /** interactive kinds: actions POSTed to /play, in order */
  play?: unknown[];
  /** something of the public part that must reach the browser (proves the check looks at the right payloads) */
  shown: string;
}

/** `image(name)`: a stored image of the study, as its served URL ("/api/assets/<sha256>"). */
export type KindFixtureBuilder = (tag: string, image: (name: string) => Promise<string>) => Promise<KindFixture>;

export const kindFixtureBuilders: Record<string, KindFixtureBuilder> = {
  async "enact-forward"(tag, image) {
    const order = [2, 0, 3, 1];
    const fact = (step: number) => `${tag}Fact${step}`;
    const candidateStates: string[][] = [];
    order.forEach((candidate, step) => (candidateStates[candidate] = [`${tag}Initial`, ...Array.from({ length: step + 1 }, (_, k) => fact(k))]));
    return {
      public: {
        initialImage: await image("start"),
        actions: ["The fridge is opened.", "The milk is taken out.", "The fridge is closed.", "The milk is poured."],
        candidates: await Promise.all(["c0", "c1", "c2", "c3"].map(image)),
      },
      key: { order, states: { initial: [`${tag}Initial`], candidates: candidateStates }, hidden: [`${tag}Hidden`] },
      secrets: [tag],
      forbidden: ["[2,0,3,1]", "[2, 0, 3, 1]"],
      answer: { order: [3, 2, 1, 0] },
      shown: "The milk is taken out.",
    };
  },
  async "enact-inverse"(tag, image) {
    const order = [1, 3, 0, 2];
    return {
      public: {
        observations: await Promise.all(["o0", "o1", "o2", "o3", "o4"].map(image)),
        candidates: ["The drawer is opened.", "The cup is picked up.", "The cup is put in the drawer.", "The drawer is closed."],
      },
      key: {
        order,
        changes: Array.from({ length: 4 }, (_, c) => [`+${tag}Change${c}`]),
        stepChanges: Array.from({ length: 4 }, (_, step) => [`+${tag}Change${order[step]}`, `-${tag}Gone${step}`]),
      },
      secrets: [tag],
      forbidden: ["[1,3,0,2]", "[1, 3, 0, 2]"],
      answer: { order: [3, 2, 1, 0] },
      shown: "The cup is put in the drawer.",
    };
  },
  async "gridwm-next-obs"(tag, image) {
    return {
      public: {
        observation: await image("obs"),
        action: "forward",
        candidates: await Promise.all(["a", "b", "c", "d"].map(image)),
        mission: "get to the green goal square",
      },
      key: { answer: "C", modelPrompt: `${tag} Which image comes next? Answer C.` },
      secrets: [tag],
      forbidden: ['"answer":"C"'],
      answer: { choice: "A" },
      shown: "get to the green goal square",
    };
  },
  async "gridwm-scene-json"(tag, image) {
    return {
      public: { image: await image("frame"), mission: "open the red door", gridSize: [8, 8] },
      key: {
        answer_json: {
          agent: { pos: [3, 5], dir: 1, carrying: { type: `${tag}key`, color: "red" } },
          front_cell: { pos: [4, 5], type: "door", state: 2 },
          objects: [{ type: `${tag}ball`, pos: [6, 2], color: "blue", state: null }],
        },
        modelPrompt: `${tag} Describe the scene as JSON.`,
      },
      secrets: [tag],
      answer: { agent: { pos: [1, 1], dir: 0, carrying: null }, front_cell: { pos: [1, 2], type: "wall", state: null }, objects: [] },
      shown: "open the red door",
    };
  },
  async "gridwm-judge"(tag, image) {
    return {
      public: { storyboard: await image("storyboard"), mission: "pick up the yellow key", actions: ["forward", "left", "pickup"] },
      key: { answer: "Fail", modelPrompt: `${tag} Did the agent succeed?` },
      secrets: [tag],
      forbidden: ['"answer":"Fail"'],
      answer: { verdict: "Success" },
      shown: "pick up the yellow key",
    };
  },
  async "free-text"(tag, image) {
    return {
      public: { question: "What is on the kitchen counter?", media: { images: [await image("counter")] } },
      key: { answer: `${tag} a blue kettle`, extraAnswers: [`${tag}Extra the kettle`] },
      secrets: [tag],
      answer: { text: "a toaster" },
      shown: "What is on the kitchen counter?",
    };
  },
  async "free-text-grade"(tag) {
    return {
      public: { question: "What colour is the sofa?", references: ["Red"], answer: "It is dark red" },
      key: { source: { study: `st_${tag}`, response: `resp_${tag}` } },
      secrets: [tag],
      answer: { grade: 4 },
      shown: "It is dark red",
    };
  },
  async "explore-scene"(tag, image) {
    return {
      public: {
        initialImage: await image("scene"),
        actions: ["pick up the bowl", "put the bowl in the sink", "turn on the faucet"],
        vocabulary: ["bowl", "sink", "faucet"],
      },
      key: {
        objects: [
          { category: "bowl", description: `${tag} wet and upside down`, relation: ["bowl in sink"] },
          { category: "sink", description: `${tag}Sink`, relation: [] },
        ],
        keyStates: [`${tag} the faucet is left running`],
      },
      secrets: [tag],
      answer: { objects: [{ category: "bowl", description: "on the counter", relation: [] }], text: "A bowl on the counter." },
      shown: "put the bowl in the sink",
    };
  },
  async "esi-explore"(tag, image) {
    const [s0, s1, s3, gt] = await Promise.all(["s0", "s1", "s3", "gt"].map(image));
    const hidden = `${tag.toLowerCase()}ball_1`;
    return {
      public: { question: "Is there a ball under the mug?", options: ["Yes", "No"], initialImage: s0, maxSteps: 5 },
      key: {
        answer: "Yes",
        graph: {
          initial: "s0",
          states: {
            s0: { image: s0, objects: ["mug_1", "table_2"], viewpoint: "v0" },
            s1: { image: s1, objects: ["table_2"], viewpoint: "v1" },
            s3: { image: s3, objects: [hidden], holding: ["mug_1"], viewpoint: "v0", contrastive: true, note: `${tag}Note` },
          },
          edges: { s0: { move_forward: "s1", "pick_up(mug_1)": "s3" }, s1: { move_backward: "s0" }, s3: {} },
        },
        views: { gt: [gt, s3] },
        metadata: { source: `${tag}Metadata` },
      },
      // the hidden state's object and image, and the reference views, are reached only by picking the mug up
      secrets: [tag.toLowerCase(), tag, s3.split("/").pop()!, gt.split("/").pop()!],
      answer: { choice: "No" },
      play: [{ name: "move_forward" }],
      shown: "Is there a ball under the mug?",
    };
  },
  async "ego2world-play"(tag, image) {
    const line = episodeItem(coffeeEpisode);
    const areas = Object.fromEntries(
      await Promise.all(Object.keys(line.public.areas).map(async (area) => [area, { image: await image(`area-${area}`) }] as const)),
    );
    const key = line.key as unknown as { tasks: Array<{ id: string; goal: string[]; reference: string[] }> };
    return {
      public: { ...line.public, title: `Coffee corner ${tag.slice(-4)}`, areas } as Record<string, unknown>,
      key: line.key as unknown as Record<string, unknown>,
      // the goals and the reference solutions are the key; the rules' preconditions too
      secrets: [...key.tasks.flatMap((task) => task.goal), ...key.tasks.map((task) => JSON.stringify(task.reference)), "m.pod = loaded"],
      answer: { tasks: [] },
      play: [{ type: "act", action: "go_to(cabinet)" }],
      shown: key.tasks.length > 0 ? "Bring a clean cup from the cabinet" : "",
    };
  },
  async rating(tag, image) {
    return {
      public: {
        question: "Rate the generated video",
        media: { text: "A ball rolls off the table.", frames: await Promise.all(["f0", "f1"].map(image)), fps: 2 },
        rubric: [
          {
            id: "instruction",
            type: "likert",
            dimension: "instruction",
            label: "Instruction following",
            min: 0,
            max: 3,
            anchors: { "0": "ignores it", "3": "follows it fully" },
          },
          { id: "gravity", type: "check", dimension: "physics", label: "Does the ball fall as gravity would make it?", pass: "yes" },
        ],
      },
      key: { reference: { instruction: 3, gravity: "yes" }, source: `${tag} reference labels` },
      secrets: [tag],
      answer: { ratings: { instruction: 1, gravity: "no" } },
      shown: "Instruction following",
    };
  },
  async pairwise(tag, image) {
    return {
      public: {
        question: "Which video is better?",
        a: { frames: await Promise.all(["pa0", "pa1"].map(image)), fps: 2 },
        b: { frames: await Promise.all(["pb0", "pb1"].map(image)), fps: 2 },
        dimensions: [
          { id: "quality", label: "Visual quality" },
          { id: "physics", label: "Physical plausibility" },
        ],
        models: { a: `${tag}-gen-a`, b: `${tag}-gen-b` },
        metric: { name: "VBench", a: 0.8, b: 0.6 },
      },
      key: { reference: { quality: "a", physics: "tie" }, source: `${tag} arena votes` },
      secrets: [tag],
      answer: { prefs: { quality: "b", physics: "tie" } },
      shown: "Physical plausibility",
    };
  },
  async choice(tag, image) {
    return {
      public: {
        question: "Which object is closest to the door?",
        options: [
          { id: "chair", text: "the chair" },
          { id: "lamp-7", text: "the lamp" },
          { id: "pic", image: await image("option-picture") },
        ],
        media: { images: [await image("room")] },
      },
      key: { answer: "lamp-7", note: `${tag} measured on the floor plan` },
      secrets: [tag],
      forbidden: ['"answer":"lamp-7"'],
      answer: { choice: "chair" },
      shown: "Which object is closest to the door?",
    };
  },
  async numeric(tag, image) {
    return {
      public: { question: "How long is the table?", unit: "centimeters", media: { images: [await image("table")] } },
      key: { answer: 187.5, metric: "mra", note: `${tag} tape measure` },
      secrets: [tag, "187.5"],
      answer: { value: 150 },
      shown: "How long is the table?",
    };
  },
};

/** The builder of a kind; throws, naming the kind, when there is none. */
export function kindFixtureBuilder(kind: string): KindFixtureBuilder {
  const builder = kindFixtureBuilders[kind];
  if (!builder) {
    throw new Error(
      `No answer-key leak fixture for the task kind "${kind}": add a builder to kindFixtureBuilders in e2e/kind-fixtures.ts (a valid item whose key holds distinctive strings)`,
    );
  }
  return builder;
}

export interface KindFixtureStudy {
  id: string;
  slug: string;
  itemId: string;
  fixture: KindFixture;
}

/** A study with the kind's one fixture item (a main item, not practice) and its images, written with pg; deleteStudy removes it. */
export async function createKindStudy(kind: string, tag: string, members: E2eUserName[]): Promise<KindFixtureStudy> {
  const builder = kindFixtureBuilder(kind);
  const db = e2eDb();
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const slug = `leak-${kind}-${randomUUID().slice(0, 6)}`;
  await db.query(`INSERT INTO "Study" (id, slug, title, overlap, status, "pseudonymSalt", "updatedAt") VALUES ($1, $2, $3, 1, 'OPEN', $4, now())`, [
    id,
    slug,
    `Leak test: ${kind}`,
    randomUUID(),
  ]);
  const image = async (name: string) => {
    const seed = createHash("sha256").update(`${tag}:${name}`).digest();
    const bytes = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: seed[0], g: seed[1], b: seed[2] } } })
      .png()
      .toBuffer();
    const hash = createHash("sha256").update(bytes).digest("hex");
    await db.query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/png', $2, $3) ON CONFLICT (hash) DO NOTHING`, [hash, bytes.length, bytes]);
    await db.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, hash]);
    return `/api/assets/${hash}`;
  };
  const fixture = await builder(tag, image);
  const batchId = `ba_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'leak test', $3, 1)`, [batchId, id, randomUUID()]);
  const itemId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(
    `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash") VALUES ($1, $2, $3, $4, $5, $6, $7, '{}', false, false, $8)`,
    [itemId, id, batchId, `leak-${kind}`, kind, JSON.stringify(fixture.public), JSON.stringify(fixture.key), randomUUID()],
  );
  for (const name of members)
    await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, id FROM "User" WHERE email = $2`, [id, e2eUsers[name].email]);
  return { id, slug, itemId, fixture };
}
