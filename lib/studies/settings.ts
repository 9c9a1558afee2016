import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { getTaskModule, isTaskKind, taskKinds, taskModules } from "@/lib/tasks";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import { insertAuditEntry } from "@/lib/repos/audit";
import { countItemsByRole, listKindsOfStudy, listTagKeysOfStudy } from "@/lib/repos/items";
import { countResponsesOfStudy } from "@/lib/repos/responses";
import {
  findGeneraliseOver,
  findStudyEntryLink,
  findStudyGeneraliseOverBySlug,
  findStudySettingsRow,
  findStudyStatus,
  findVersionRef,
  listNextVersions,
  lockStudy,
  setEntryToken,
  setGeneraliseOver,
  setStudyStatusIf,
  updateStudySettingsRow,
  type StudySettingsRow,
} from "@/lib/repos/studies";
import { inTransaction } from "@/lib/repos/transactions";
import {
  endingsOf,
  generaliseOverSchema,
  STATUS_TRANSITIONS,
  studySettingsSchema,
  studySettingsPatchSchema,
  studySettingsPatchSchemaWith,
  type StudySettings,
  type StudyStatusValue,
  type TutorialPage,
} from "@/lib/validations/study-settings";

/**
 * A study's settings (the Settings tab): read, change while the study is not frozen, the
 * lifecycle DRAFT -> OPEN -> PAUSED -> CLOSED (PAUSED -> OPEN), and the public entry link.
 *
 * Frozen: once the first response exists, items and settings no longer change (answers must stay
 * comparable); a change then needs a new version of the study (lib/studies/versions.ts). The status
 * and the entry link stay changeable: they steer who may work, not what the work is.
 */

/** A kind's settings form: its JSON Schema (for the browser form) and current values. */
export interface KindSettingsInfo {
  kind: string;
  title: string;
  /** JSON Schema of the kind's settingsSchema; null when it cannot be expressed (the form offers JSON then) */
  jsonSchema: Record<string, unknown> | null;
  /** the kind is in this study's items */
  inStudy: boolean;
}

export interface StudySettingsView {
  id: string;
  slug: string;
  status: StudyStatusValue;
  version: number;
  previousVersion: { slug: string; version: number } | null;
  nextVersions: Array<{ slug: string; version: number }>;
  entryToken: string | null;
  consentVersion: number;
  /** responses stored (any purpose): the study is frozen when > 0 */
  responses: number;
  frozen: boolean;
  settings: StudySettings;
  /** analysis settings: changeable whether or not the study is frozen (PATCH /api/studies/<slug>/analysis) */
  analysis: { generaliseOver: GeneraliseOver };
  /** how participants reach the research team: changeable whether or not the study is frozen (PATCH /api/studies/<slug>/contact) */
  contact: { contactName: string | null; contactEmail: string | null };
  kinds: KindSettingsInfo[];
  /** tag keys of the study's items (balance tag choices) */
  tagKeys: string[];
  items: { total: number; practice: number; gold: number };
}

export function tutorialPagesOf(value: unknown): TutorialPage[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((page) => {
    const record = page && typeof page === "object" ? (page as Record<string, unknown>) : {};
    return typeof record.title === "string" && typeof record.body === "string" ? [{ title: record.title, body: record.body }] : [];
  });
}

function taskSettingsOf(value: unknown): Record<string, Record<string, unknown>> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const [kind, settings] of Object.entries(value as Record<string, unknown>)) {
    if (settings && typeof settings === "object" && !Array.isArray(settings)) out[kind] = settings as Record<string, unknown>;
  }
  return out;
}

type StudyRow = StudySettingsRow;

function settingsOf(study: StudyRow): StudySettings {
  return {
    title: study.title,
    instructions: study.instructions,
    overlap: study.overlap,
    confidenceScale: study.confidenceScale,
    idleCapSeconds: study.idleCapSeconds,
    consentMarkdown: study.consentMarkdown,
    tutorialPages: tutorialPagesOf(study.tutorialPages),
    practicePassMark: study.practicePassMark,
    goldRate: study.goldRate,
    goldFailLimit: study.goldFailLimit,
    goldFailWindow: study.goldFailWindow,
    itemsPerParticipant: study.itemsPerParticipant,
    itemTimeLimitSeconds: study.itemTimeLimitSeconds,
    sessionTimeLimitSeconds: study.sessionTimeLimitSeconds,
    leaseSeconds: study.leaseSeconds,
    firstItemLeaseSeconds: study.firstItemLeaseSeconds,
    completionCode: study.completionCode,
    completionRedirectUrl: study.completionRedirectUrl,
    endings: endingsOf(study.endings),
    desktopOnly: study.desktopOnly,
    balanceTag: study.balanceTag,
    conditions: study.conditions,
    taskSettings: taskSettingsOf(study.taskSettings),
  };
}

async function studyRow(slug: string): Promise<StudyRow> {
  const study = await findStudySettingsRow(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return study;
}

/** Responses stored in the study (any purpose, practice included). */
export async function studyResponseCount(studyId: string): Promise<number> {
  return countResponsesOfStudy(studyId);
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> | null {
  try {
    return z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" }) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export async function getStudySettings(slug: string): Promise<StudySettingsView> {
  const study = await studyRow(slug);
  const [responses, kindsInStudy, tagKeys, previous, next, itemCounts] = await Promise.all([
    studyResponseCount(study.id),
    listKindsOfStudy(study.id),
    listTagKeysOfStudy(study.id),
    study.previousVersionId ? findVersionRef(study.previousVersionId) : Promise.resolve(null),
    listNextVersions(study.id),
    countItemsByRole(study.id),
  ]);
  const kinds: KindSettingsInfo[] = Object.values(taskModules)
    .filter((module) => module.settingsSchema)
    .map((module) => ({
      kind: module.kind,
      title: module.title,
      jsonSchema: jsonSchemaOf(module.settingsSchema!),
      inStudy: kindsInStudy.includes(module.kind),
    }));
  const count = (where: (row: { practice: boolean; gold: boolean }) => boolean) => itemCounts.filter(where).reduce((sum, row) => sum + row.count, 0);
  return {
    id: study.id,
    slug: study.slug,
    status: study.status,
    version: study.version,
    previousVersion: previous,
    nextVersions: next,
    entryToken: study.entryToken,
    consentVersion: study.consentVersion,
    responses,
    frozen: responses > 0,
    settings: settingsOf(study),
    analysis: { generaliseOver: generaliseOverOf(study.generaliseOver) },
    contact: { contactName: study.contactName, contactEmail: study.contactEmail },
    kinds,
    tagKeys,
    items: { total: count(() => true), practice: count((row) => row.practice), gold: count((row) => row.gold) },
  };
}

/**
 * The body of PATCH /api/studies/<slug>/settings, for the route and its OpenAPI document: any of
 * the study settings (a partial change: the others stay), with `taskSettings` an object of the
 * registered kinds, each optional and checked by its kind's settingsSchema (a kind without one
 * takes {} only); other keys are refused. Built by
 * looping over the registry when the route loads. updateStudySettings checks the kinds again (for
 * callers other than the route).
 */
export function studySettingsBodySchema() {
  const kinds = Object.fromEntries(taskKinds.map((kind) => [kind, (taskModules[kind].settingsSchema ?? z.strictObject({})).optional()]));
  return studySettingsPatchSchemaWith(z.strictObject(kinds) as z.ZodType<Record<string, Record<string, unknown>>>);
}

/** Per-kind settings checked by each kind's settingsSchema; issues name taskSettings.<kind>.<field>. */
function validateTaskSettings(input: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const issues: Array<{ path: string; message: string }> = [];
  const out: Record<string, Record<string, unknown>> = {};
  for (const [kind, settings] of Object.entries(input)) {
    if (!isTaskKind(kind)) {
      issues.push({ path: `taskSettings.${kind}`, message: `unknown task kind "${kind}"` });
      continue;
    }
    const schema = getTaskModule(kind).settingsSchema;
    if (!schema) {
      if (Object.keys(settings).length > 0) issues.push({ path: `taskSettings.${kind}`, message: `the kind ${kind} takes no settings` });
      continue;
    }
    const parsed = schema.safeParse(settings);
    if (parsed.success) out[kind] = parsed.data;
    else for (const issue of parsed.error.issues) issues.push({ path: ["taskSettings", kind, ...issue.path.map(String)].join("."), message: issue.message });
  }
  if (issues.length > 0) throw new AppError("INVALID", `Task settings: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, { issues });
  return out;
}

/** Which settings differ (the audit entry lists them with their old and new values; long texts by length). */
function changes(before: StudySettings, after: StudySettings): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  const brief = (value: unknown) =>
    typeof value === "string" && value.length > 80
      ? `(${value.length} characters)`
      : Array.isArray(value) && value.some((v) => typeof v === "object")
        ? `(${value.length} entries)`
        : value;
  for (const key of Object.keys(after) as Array<keyof StudySettings>) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = { from: brief(before[key]), to: brief(after[key]) };
  }
  return out;
}

/**
 * Changes the settings of a study that is not frozen (CONFLICT once a response exists). A new
 * consent text raises the consent version, so participants who accepted the old text are asked
 * again. Writes one audit entry listing what changed.
 */
export async function updateStudySettings(slug: string, raw: unknown, actorId: string): Promise<StudySettingsView> {
  const patch = studySettingsPatchSchema.parse(raw);
  const study = await studyRow(slug);
  // only the fields sent change: the rules between settings are checked on the result
  const current = settingsOf(study);
  const sent = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const input = studySettingsSchema.parse({ ...current, ...sent, taskSettings: { ...current.taskSettings, ...(patch.taskSettings ?? {}) } });
  const taskSettings = validateTaskSettings(input.taskSettings);
  if (input.balanceTag !== null) {
    const tagKeys = await listTagKeysOfStudy(study.id);
    if (tagKeys.length > 0 && !tagKeys.includes(input.balanceTag)) {
      throw new AppError("INVALID", `balanceTag: no item of this study has the tag "${input.balanceTag}"; tags: ${tagKeys.join(", ")}`, {
        issues: [{ path: "balanceTag", message: `no item has the tag "${input.balanceTag}" (tags: ${tagKeys.join(", ")})` }],
      });
    }
  }
  const before = settingsOf(study);
  const after: StudySettings = { ...input, taskSettings };
  const diff = changes(before, after);
  if (Object.keys(diff).length === 0) return getStudySettings(slug);
  // a new version of a text people accepted; the first text saved (none before) stays version 1
  const consentChanged = before.consentMarkdown.trim() !== "" && before.consentMarkdown.trim() !== after.consentMarkdown.trim();

  await inTransaction(async (tx) => {
    // under the row lock: a response stored since the check above makes this a conflict
    await lockStudy(tx, study.id);
    if ((await countResponsesOfStudy(study.id, tx)) > 0) {
      throw new AppError("CONFLICT", `The study "${slug}" has responses, so its settings are frozen: create a new version to change them`);
    }
    await updateStudySettingsRow(
      tx,
      study.id,
      {
        ...after,
        tutorialPages: after.tutorialPages as Prisma.InputJsonValue,
        taskSettings: after.taskSettings as Prisma.InputJsonValue,
        endings: after.endings as Prisma.InputJsonValue,
      },
      consentChanged,
    );
    await insertAuditEntry(
      {
        actorId,
        action: "study.settings",
        target: `study:${study.id}`,
        detail: { slug, changes: diff, consentVersionRaised: consentChanged } as Prisma.InputJsonValue,
      },
      tx,
    );
  });
  return getStudySettings(slug);
}

/** Moves a study along its lifecycle (DRAFT -> OPEN -> PAUSED -> CLOSED, PAUSED -> OPEN). */
export async function changeStudyStatus(slug: string, status: StudyStatusValue, actorId: string): Promise<{ status: StudyStatusValue }> {
  const study = await findStudyStatus(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  if (study.status === status) return { status };
  const allowed = STATUS_TRANSITIONS[study.status];
  if (!allowed.includes(status)) {
    throw new AppError(
      "CONFLICT",
      `A ${study.status.toLowerCase()} study cannot become ${status.toLowerCase()}${allowed.length ? `; it can become ${allowed.map((s) => s.toLowerCase()).join(" or ")}` : " (closed is final)"}`,
    );
  }
  if (!(await setStudyStatusIf(study.id, study.status, status))) throw new AppError("CONFLICT", "The status changed meanwhile; reload the page");
  await recordAudit(actorId, "study.status", `study:${study.id}`, { slug, from: study.status, to: status });
  return { status };
}

/** The stored choice read leniently: anything else is the default, people and items. */
export function generaliseOverOf(value: unknown): GeneraliseOver {
  const parsed = generaliseOverSchema.safeParse(value);
  return parsed.success ? parsed.data : "people+items";
}

/** What a study's dashboard intervals generalise over (Study.generaliseOver). */
export async function studyGeneraliseOver(studyId: string): Promise<GeneraliseOver> {
  return generaliseOverOf(await findGeneraliseOver(studyId));
}

/**
 * Changes the analysis settings: what the dashboards' intervals generalise over. Allowed on a
 * frozen study (it changes how answers are summarised, not the work); the stored dashboard views
 * are of the old choice and are recomputed (the choice is part of their figures' version). One
 * audit entry.
 */
export async function updateStudyAnalysis(
  slug: string,
  input: { generaliseOver: GeneraliseOver },
  actorId: string,
): Promise<{ generaliseOver: GeneraliseOver }> {
  const generaliseOver = generaliseOverSchema.parse(input.generaliseOver);
  const study = await findStudyGeneraliseOverBySlug(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const before = generaliseOverOf(study.generaliseOver);
  if (before === generaliseOver) return { generaliseOver };
  await setGeneraliseOver(study.id, generaliseOver);
  await recordAudit(actorId, "study.analysis", `study:${study.id}`, { slug, changes: { generaliseOver: { from: before, to: generaliseOver } } });
  return { generaliseOver };
}

/** A fresh public link token (24 random bytes, URL-safe). */
export function newEntryToken(): string {
  return randomBytes(24).toString("base64url");
}

/** Creates (or replaces: old links stop working) the public entry link, or switches it off. */
export async function setEntryLink(slug: string, action: "create" | "disable", actorId: string): Promise<{ entryToken: string | null }> {
  const study = await findStudyEntryLink(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const entryToken = action === "create" ? newEntryToken() : null;
  await setEntryToken(study.id, entryToken);
  await recordAudit(
    actorId,
    action === "create" ? (study.entryToken ? "study.entry-link.replace" : "study.entry-link.create") : "study.entry-link.disable",
    `study:${study.id}`,
    { slug },
  );
  return { entryToken };
}
