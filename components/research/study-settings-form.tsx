"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useForm, useWatch, type FieldErrors, type Path, type PathValue } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, focusFirstFieldError, inputClass } from "@/components/ui/field";
import {
  ENDING_LABELS,
  ENDINGS,
  prolificCompletionUrl,
  studySettingsSchema,
  type EndingName,
  type StudySettings,
  type StudySettingsInput,
} from "@/lib/validations/study-settings";
import { DESKTOP_ONLY_PROLIFIC_TEXT } from "@/lib/client/device";
import { callApi, type ApiIssue } from "@/lib/client/api";
import { FormMessage, type FormOutcome } from "@/components/ui/form-message";

/**
 * Every setting of a study in one form (PATCH /api/studies/<slug>/settings), checked in the
 * browser by the schema the server uses (react-hook-form with zodResolver); the zod issues, the
 * browser's and the server's, are named by path ("goldFailWindow", "tutorialPages.1.body", "taskSettings.<kind>.<field>")
 * and show under their field; a refused save scrolls to the first of them and focuses it (the
 * inputs are controlled, so react-hook-form has no refs to focus). Read-only once the study is
 * frozen (it has responses).
 */

export interface KindSettingsForm {
  kind: string;
  title: string;
  jsonSchema: Record<string, unknown> | null;
  inStudy: boolean;
}

type Errors = Record<string, string>;

const textareaClass =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100 disabled:bg-slate-50 disabled:text-slate-600";
const numberClass = `${inputClass} disabled:bg-slate-50 disabled:text-slate-600`;

/** "1800" -> "30 min" */
function humanSeconds(value: number | null): string {
  if (value === null || !Number.isFinite(value) || value <= 0) return "";
  if (value < 120) return `${value} s`;
  if (value < 7200) return `${+(value / 60).toFixed(1)} min`;
  return `${+(value / 3600).toFixed(1)} h`;
}

const toNumberOrNull = (text: string): number | null => (text.trim() === "" ? null : Number(text));

/** react-hook-form's nested errors as path -> message ("tutorialPages.1.body"); an array's own error ("x.root") counts as the array's. */
function errorsByPath(errors: FieldErrors, prefix = ""): Errors {
  const byPath: Errors = {};
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== "object" || key === "ref") continue;
    const path = key === "root" && prefix ? prefix.slice(0, -1) : `${prefix}${key}`;
    const { message } = value as { message?: unknown };
    if (typeof message === "string") byPath[path] ??= message;
    Object.assign(byPath, errorsByPath(value as FieldErrors, `${path}.`));
  }
  return byPath;
}

function notSavedText(problems: number): string {
  return `Not saved: ${problems} problem${problems === 1 ? "" : "s"}, shown at ${problems === 1 ? "its field" : "their fields"}.`;
}

export function StudySettingsForm({
  slug,
  initial,
  frozen,
  kinds,
  tagKeys,
  consentVersion,
}: {
  slug: string;
  initial: StudySettings;
  frozen: boolean;
  kinds: KindSettingsForm[];
  tagKeys: string[];
  consentVersion: number;
}) {
  const router = useRouter();
  const {
    control,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    reset,
    formState: { errors: formErrors, isSubmitting: pending, isSubmitted },
  } = useForm<StudySettingsInput, unknown, StudySettings>({ resolver: zodResolver(studySettingsSchema), defaultValues: initial });
  // every input below is controlled and writes values of the parsed shape, so the form holds StudySettings throughout
  const s = useWatch({ control }) as StudySettings;
  const [conditionsText, setConditionsText] = useState(initial.conditions.join(", "));
  const [kindJson, setKindJson] = useState<Record<string, string>>(() =>
    Object.fromEntries(kinds.map((k) => [k.kind, JSON.stringify(initial.taskSettings[k.kind] ?? {}, null, 2)])),
  );
  const errors = errorsByPath(formErrors);
  const [message, setMessage] = useState<FormOutcome | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // set by a refused save; the first render that shows a field error then brings it into view
  // (react-hook-form publishes the errors after its onInvalid callback, so possibly a render later)
  const focusPending = useRef(false);
  useEffect(() => {
    if (focusPending.current && focusFirstFieldError(formRef.current)) focusPending.current = false;
  });
  const refuse = (text: string) => {
    focusPending.current = true;
    setMessage({ tone: "bad", text });
  };
  // once a save was tried, each change is checked again so that a fixed field loses its error
  const set = <K extends keyof StudySettings & keyof StudySettingsInput>(key: K, value: StudySettings[K]) =>
    setValue(key, value as PathValue<StudySettingsInput, K>, { shouldDirty: true, shouldValidate: isSubmitted });
  const consentChanged = s.consentMarkdown.trim() !== initial.consentMarkdown.trim();
  const shownKinds = useMemo(() => kinds.filter((k) => k.inStudy || initial.taskSettings[k.kind]), [kinds, initial.taskSettings]);

  function taskSettingsValue(): { value: StudySettings["taskSettings"]; problems: Errors } {
    const value: StudySettings["taskSettings"] = { ...s.taskSettings };
    const problems: Errors = {};
    for (const kind of shownKinds) {
      if (kind.jsonSchema && isSimpleSchema(kind.jsonSchema)) continue;
      try {
        const parsed = JSON.parse(kindJson[kind.kind] || "{}") as unknown;
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) problems[`taskSettings.${kind.kind}`] = "must be a JSON object";
        else value[kind.kind] = parsed as Record<string, unknown>;
      } catch (error) {
        problems[`taskSettings.${kind.kind}`] = `not JSON: ${(error as Error).message}`;
      }
    }
    return { value, problems };
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (frozen) return;
    setMessage(null);
    clearErrors();
    const { value: taskSettings, problems } = taskSettingsValue();
    if (Object.keys(problems).length > 0) {
      for (const [path, problem] of Object.entries(problems)) setError(path as Path<StudySettingsInput>, { message: problem });
      refuse("Not saved: the task settings are not valid JSON.");
      return;
    }
    setValue(
      "conditions",
      conditionsText
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean),
    );
    setValue("taskSettings", taskSettings);
    void handleSubmit(save, (invalid) => refuse(notSavedText(Object.keys(errorsByPath(invalid)).length)))(event);
  }

  async function save(values: StudySettings) {
    const result = await callApi<{ settings?: StudySettings } | undefined>(`/api/studies/${encodeURIComponent(slug)}/settings`, {
      method: "PATCH",
      json: values,
    });
    if (!result.ok && result.unreachable) {
      setMessage({ tone: "bad", text: "Not saved: the server cannot be reached." });
      return;
    }
    if (!result.ok) {
      const issues = result.issues ?? (result.details as { issues?: ApiIssue[] } | undefined)?.issues ?? [];
      const shown = new Set<string>();
      for (const issue of issues) {
        if (shown.has(issue.path)) continue; // the first message of a field, as the server ordered them
        shown.add(issue.path);
        setError(issue.path as Path<StudySettingsInput>, { message: issue.message });
      }
      if (issues.length > 0) refuse(notSavedText(issues.length));
      else setMessage({ tone: "bad", text: `Not saved: ${result.error ?? "the server refused the change"}` });
      return;
    }
    const body = result.data ?? {};
    if (body.settings) {
      reset(body.settings);
      setConditionsText(body.settings.conditions.join(", "));
    }
    setMessage({ tone: "good", text: "Saved." });
    router.refresh();
  }

  const err = (path: string) => errors[path];
  const pageErrors = (i: number) => err(`tutorialPages.${i}.title`) ?? err(`tutorialPages.${i}.body`);

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Study settings" data-testid="settings-form">
      <fieldset disabled={frozen || pending} className="min-w-0 space-y-6">
        <Card>
          <CardHeader title="General" />
          <CardBody className="space-y-5">
            <Field label="Title" error={err("title")}>
              <input name="title" value={s.title} onChange={(e) => set("title", e.target.value)} className={numberClass} />
            </Field>
            <Field label="Instructions (Markdown)" hint="Shown to participants on the study's page before they start." error={err("instructions")}>
              <textarea name="instructions" rows={6} value={s.instructions} onChange={(e) => set("instructions", e.target.value)} className={textareaClass} />
            </Field>
            <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              <Field label="Annotators per item (k)" error={err("overlap")}>
                <input
                  name="overlap"
                  type="number"
                  min={1}
                  max={50}
                  value={s.overlap}
                  onChange={(e) => set("overlap", Number(e.target.value))}
                  className={numberClass}
                />
              </Field>
              <Field label="Confidence scale" error={err("confidenceScale")}>
                <select
                  name="confidenceScale"
                  value={s.confidenceScale}
                  onChange={(e) => set("confidenceScale", e.target.value as StudySettings["confidenceScale"])}
                  className={numberClass}
                >
                  <option value="LIKERT_5">1 to 5 (buttons)</option>
                  <option value="PERCENT">0 to 100% (slider)</option>
                </select>
              </Field>
              <Field label="Idle cap (seconds)" hint="Gaps between events count at most this much active time." error={err("idleCapSeconds")}>
                <input
                  name="idleCapSeconds"
                  type="number"
                  min={5}
                  value={s.idleCapSeconds}
                  onChange={(e) => set("idleCapSeconds", Number(e.target.value))}
                  className={numberClass}
                />
              </Field>
            </div>
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Consent"
            description={`Participants must accept this text before any work; it is stored with its version (now ${consentVersion}) and the time. Empty: no consent step.`}
          />
          <CardBody>
            <Field
              label="Consent form (Markdown)"
              hint={
                consentChanged
                  ? `Changed: saving makes it version ${consentVersion + 1}, and everyone who accepted an earlier version is asked again.`
                  : undefined
              }
              error={err("consentMarkdown")}
            >
              <textarea
                name="consentMarkdown"
                rows={8}
                value={s.consentMarkdown}
                onChange={(e) => set("consentMarkdown", e.target.value)}
                className={textareaClass}
                placeholder={"# Consent\n\nWhat the study is, what is recorded, how long it takes, that taking part is voluntary and how to withdraw..."}
              />
            </Field>
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Tutorial"
            description="Pages shown after consent, before the practice items: how the task works, with worked examples. Practice items show their right answer after each submission."
          />
          <CardBody className="space-y-4">
            {s.tutorialPages.length === 0 ? (
              <p className="text-sm text-slate-500">No tutorial pages: participants go from the instructions to the practice items.</p>
            ) : null}
            {s.tutorialPages.map((page, i) => (
              <div key={i} className="rounded-md border border-slate-200 p-3" data-testid="tutorial-page-editor">
                <div className="mb-2 flex items-center gap-2">
                  <span className="text-xs font-semibold text-slate-500">Page {i + 1}</span>
                  <span className="ml-auto flex gap-1">
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      disabled={i === 0}
                      onClick={() => set("tutorialPages", move(s.tutorialPages, i, i - 1))}
                      aria-label={`Move page ${i + 1} up`}
                    >
                      ↑
                    </Button>
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      disabled={i === s.tutorialPages.length - 1}
                      onClick={() => set("tutorialPages", move(s.tutorialPages, i, i + 1))}
                      aria-label={`Move page ${i + 1} down`}
                    >
                      ↓
                    </Button>
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      onClick={() =>
                        set(
                          "tutorialPages",
                          s.tutorialPages.filter((_, k) => k !== i),
                        )
                      }
                      aria-label={`Remove page ${i + 1}`}
                    >
                      Remove
                    </Button>
                  </span>
                </div>
                <div className="grid gap-3">
                  <Field label="Title" error={err(`tutorialPages.${i}.title`)}>
                    <input
                      value={page.title}
                      onChange={(e) =>
                        set(
                          "tutorialPages",
                          s.tutorialPages.map((p, k) => (k === i ? { ...p, title: e.target.value } : p)),
                        )
                      }
                      className={numberClass}
                      aria-label={`Title of page ${i + 1}`}
                    />
                  </Field>
                  <Field label="Text (Markdown; images as ![alt](/api/assets/<hash>))" error={err(`tutorialPages.${i}.body`)}>
                    <textarea
                      rows={5}
                      value={page.body}
                      onChange={(e) =>
                        set(
                          "tutorialPages",
                          s.tutorialPages.map((p, k) => (k === i ? { ...p, body: e.target.value } : p)),
                        )
                      }
                      className={textareaClass}
                      aria-label={`Text of page ${i + 1}`}
                    />
                  </Field>
                </div>
                {pageErrors(i) ? <span className="sr-only">{pageErrors(i)}</span> : null}
              </div>
            ))}
            <Button type="button" variant="secondary" size="sm" onClick={() => set("tutorialPages", [...s.tutorialPages, { title: "", body: "" }])}>
              Add a page
            </Button>
            {err("tutorialPages") ? (
              <p className="text-xs text-red-600" data-field-error>
                {err("tutorialPages")}
              </p>
            ) : null}
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Practice and attention checks"
            description="Gold items (flagged gold in the batch) are mixed into each participant's queue; failing too many ends their participation (status excluded). Their answers stay stored."
          />
          <CardBody className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            <Field
              label="Practice pass mark (%)"
              hint="Share of practice items to get right before the real items; empty: no gate."
              error={err("practicePassMark")}
            >
              <PercentInput name="practicePassMark" value={s.practicePassMark} onChange={(v) => set("practicePassMark", v)} />
            </Field>
            <Field label="Gold rate (%)" hint="Share of the main queue drawn from gold items." error={err("goldRate")}>
              <PercentInput name="goldRate" value={s.goldRate} onChange={(v) => set("goldRate", v ?? 0)} />
            </Field>
            <Field label="Exclude after failing" hint="gold items (empty: never exclude)" error={err("goldFailLimit")}>
              <input
                name="goldFailLimit"
                type="number"
                min={1}
                value={s.goldFailLimit ?? ""}
                onChange={(e) => set("goldFailLimit", toNumberOrNull(e.target.value))}
                className={numberClass}
              />
            </Field>
            <Field label="... among the first" hint="gold items answered (empty: among all)" error={err("goldFailWindow")}>
              <input
                name="goldFailWindow"
                type="number"
                min={1}
                value={s.goldFailWindow ?? ""}
                onChange={(e) => set("goldFailWindow", toNumberOrNull(e.target.value))}
                className={numberClass}
              />
            </Field>
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Quotas and time" />
          <CardBody className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            <Field label="Items per participant" hint="Main items each participant does (empty: as many as there are)." error={err("itemsPerParticipant")}>
              <input
                name="itemsPerParticipant"
                type="number"
                min={1}
                value={s.itemsPerParticipant ?? ""}
                onChange={(e) => set("itemsPerParticipant", toNumberOrNull(e.target.value))}
                className={numberClass}
              />
            </Field>
            <Field
              label="Time per item (seconds)"
              hint={s.itemTimeLimitSeconds ? `${humanSeconds(s.itemTimeLimitSeconds)}, with a visible timer` : "Empty: no limit, no timer."}
              error={err("itemTimeLimitSeconds")}
            >
              <input
                name="itemTimeLimitSeconds"
                type="number"
                min={5}
                value={s.itemTimeLimitSeconds ?? ""}
                onChange={(e) => set("itemTimeLimitSeconds", toNumberOrNull(e.target.value))}
                className={numberClass}
              />
            </Field>
            <Field
              label="Session time (seconds)"
              hint={s.sessionTimeLimitSeconds ? `${humanSeconds(s.sessionTimeLimitSeconds)} from the first item` : "Empty: no limit."}
              error={err("sessionTimeLimitSeconds")}
            >
              <input
                name="sessionTimeLimitSeconds"
                type="number"
                min={60}
                value={s.sessionTimeLimitSeconds ?? ""}
                onChange={(e) => set("sessionTimeLimitSeconds", toNumberOrNull(e.target.value))}
                className={numberClass}
              />
            </Field>
            <Field
              label="Lease (seconds)"
              hint={`${humanSeconds(s.leaseSeconds)}: an abandoned item returns to the pool after this.`}
              error={err("leaseSeconds")}
            >
              <input
                name="leaseSeconds"
                type="number"
                min={30}
                value={s.leaseSeconds}
                onChange={(e) => set("leaseSeconds", Number(e.target.value))}
                className={numberClass}
              />
            </Field>
            <Field
              label="First-item lease (seconds)"
              hint={`${humanSeconds(s.firstItemLeaseSeconds)}: an item handed out but never started returns to the pool after this.`}
              error={err("firstItemLeaseSeconds")}
            >
              <input
                name="firstItemLeaseSeconds"
                type="number"
                min={15}
                max={3600}
                value={s.firstItemLeaseSeconds}
                onChange={(e) => set("firstItemLeaseSeconds", Number(e.target.value))}
                className={numberClass}
              />
            </Field>
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Completion" description="Shown at the end. With a redirect, participants are sent there once their last answers are saved." />
          <CardBody className="grid gap-5 sm:grid-cols-[14rem_minmax(0,1fr)]">
            <Field label="Completion code" error={err("completionCode")}>
              <input
                name="completionCode"
                value={s.completionCode ?? ""}
                onChange={(e) => set("completionCode", e.target.value.trim() === "" ? null : e.target.value)}
                className={`${numberClass} font-mono`}
              />
            </Field>
            <div>
              <Field label="Redirect at the end (URL; {code} is replaced by the code)" error={err("completionRedirectUrl")}>
                <input
                  name="completionRedirectUrl"
                  value={s.completionRedirectUrl ?? ""}
                  onChange={(e) => set("completionRedirectUrl", e.target.value.trim() === "" ? null : e.target.value)}
                  className={`${numberClass} font-mono`}
                  placeholder="https://app.prolific.com/submissions/complete?cc={code}"
                />
              </Field>
              <button
                type="button"
                className="mt-1 text-xs font-medium text-brand-700 hover:underline disabled:text-slate-400"
                onClick={() => set("completionRedirectUrl", prolificCompletionUrl("{code}").replace("%7Bcode%7D", "{code}"))}
              >
                Use Prolific&apos;s completion URL
              </button>
            </div>
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Other endings"
            description="Prolific expects one code per outcome. Each ending has its own page; with a code or redirect set, participants get them there. Empty: no code, they are asked to return to the platform."
          />
          <CardBody className="grid gap-4">
            {ENDINGS.map((name) => (
              <EndingFields
                key={name}
                name={name}
                value={s.endings[name] ?? { code: null, redirectUrl: null }}
                errors={errors}
                onChange={(ending) => set("endings", { ...s.endings, [name]: ending })}
              />
            ))}
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Devices" />
          <CardBody className="grid gap-3">
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input type="checkbox" name="desktopOnly" checked={s.desktopOnly} onChange={(e) => set("desktopOnly", e.target.checked)} className="mt-0.5" />
              <span>
                <span className="font-medium">Desktop only</span>
                <span className="block text-xs text-slate-500">
                  Phones and tablets (by their browser, and any device whose only pointer is a finger) get a notice to use a computer instead of the task.
                </span>
              </span>
            </label>
            {s.desktopOnly ? (
              <div>
                <p className="text-xs font-medium text-slate-700">Device requirement for the recruitment platform (copy it into the study description):</p>
                <textarea
                  readOnly
                  value={DESKTOP_ONLY_PROLIFIC_TEXT}
                  rows={3}
                  className={`${textareaClass} mt-1 text-xs`}
                  data-testid="device-requirement"
                  onFocus={(e) => e.currentTarget.select()}
                />
                <button
                  type="button"
                  className="mt-1 text-xs font-medium text-brand-700 hover:underline"
                  onClick={() => void navigator.clipboard?.writeText(DESKTOP_ONLY_PROLIFIC_TEXT).catch(() => undefined)}
                >
                  Copy
                </button>
              </div>
            ) : null}
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Allocation" />
          <CardBody className="grid gap-5 sm:grid-cols-2">
            <Field label="Balance on tag" hint="Every participant sees the values of this tag in balanced shares." error={err("balanceTag")}>
              <select
                name="balanceTag"
                value={s.balanceTag ?? ""}
                onChange={(e) => set("balanceTag", e.target.value === "" ? null : e.target.value)}
                className={numberClass}
              >
                <option value="">No balancing</option>
                {[...new Set([...tagKeys, ...(s.balanceTag ? [s.balanceTag] : [])])].map((key) => (
                  <option key={key} value={key}>
                    {key}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              label="Conditions (comma-separated)"
              hint="Counterbalanced per item and person, e.g. passive-single, active. Empty: one condition."
              error={err("conditions") ?? Object.entries(errors).find(([path]) => path.startsWith("conditions."))?.[1]}
            >
              <input name="conditions" value={conditionsText} onChange={(e) => setConditionsText(e.target.value)} className={`${numberClass} font-mono`} />
            </Field>
          </CardBody>
        </Card>

        {shownKinds.length > 0 ? (
          <Card>
            <CardHeader title="Task settings" description="Settings of this study's task kinds, checked by each kind's own schema." />
            <CardBody className="space-y-5">
              {shownKinds.map((kind) => (
                <KindSettingsFields
                  key={kind.kind}
                  kind={kind}
                  value={s.taskSettings[kind.kind] ?? {}}
                  onChange={(value) => set("taskSettings", { ...s.taskSettings, [kind.kind]: value })}
                  json={kindJson[kind.kind] ?? "{}"}
                  onJson={(text) => setKindJson((prev) => ({ ...prev, [kind.kind]: text }))}
                  errors={errors}
                />
              ))}
            </CardBody>
          </Card>
        ) : null}
      </fieldset>

      <div className="sticky bottom-0 z-10 mt-6 flex items-center gap-3 border-t border-slate-200 bg-slate-50/95 py-3 backdrop-blur">
        {message ? <FormMessage message={message} /> : frozen ? <p className="text-sm text-slate-600">Read-only: the study has responses.</p> : null}
        <Button type="submit" className="ml-auto" disabled={frozen || pending}>
          {pending ? "Saving…" : "Save settings"}
        </Button>
      </div>
    </form>
  );
}

/** One ending's code and redirect (Study.endings). */
function EndingFields({
  name,
  value,
  errors,
  onChange,
}: {
  name: EndingName;
  value: { code: string | null; redirectUrl: string | null };
  errors: Errors;
  onChange: (value: { code: string | null; redirectUrl: string | null }) => void;
}) {
  return (
    <fieldset className="grid min-w-0 gap-3 sm:grid-cols-[14rem_minmax(0,1fr)]" data-testid={`ending-${name}`}>
      <legend className="mb-1 text-sm font-medium text-slate-800">{ENDING_LABELS[name]}</legend>
      <Field label="Code" error={errors[`endings.${name}.code`]}>
        <input
          name={`endings.${name}.code`}
          value={value.code ?? ""}
          onChange={(e) => onChange({ ...value, code: e.target.value.trim() === "" ? null : e.target.value })}
          className={`${numberClass} font-mono`}
        />
      </Field>
      <Field label="Redirect (URL; {code} is replaced)" error={errors[`endings.${name}.redirectUrl`]}>
        <input
          name={`endings.${name}.redirectUrl`}
          value={value.redirectUrl ?? ""}
          onChange={(e) => onChange({ ...value, redirectUrl: e.target.value.trim() === "" ? null : e.target.value })}
          className={`${numberClass} font-mono`}
          placeholder="https://app.prolific.com/submissions/complete?cc={code}"
        />
      </Field>
    </fieldset>
  );
}

function move<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [entry] = next.splice(from, 1);
  next.splice(to, 0, entry);
  return next;
}

/** A share in [0, 1] edited as a percentage; empty is null. */
function PercentInput({ name, value, onChange }: { name: string; value: number | null; onChange: (value: number | null) => void }) {
  const [text, setText] = useState(value === null ? "" : String(+(value * 100).toFixed(2)));
  return (
    <input
      name={name}
      type="number"
      min={0}
      max={100}
      step="any"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(e.target.value.trim() === "" ? null : Number(e.target.value) / 100);
      }}
      className={numberClass}
    />
  );
}

interface SchemaProperty {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  title?: string;
  default?: unknown;
}

/** A settings schema the form can show field by field: an object of booleans, strings, numbers and enums. */
function isSimpleSchema(schema: Record<string, unknown>): boolean {
  const properties = schema.properties as Record<string, SchemaProperty> | undefined;
  if (schema.type !== "object" || !properties) return false;
  return Object.values(properties).every((p) => p.enum || ["boolean", "string", "number", "integer"].includes(String(p.type)));
}

function KindSettingsFields({
  kind,
  value,
  onChange,
  json,
  onJson,
  errors,
}: {
  kind: KindSettingsForm;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  json: string;
  onJson: (text: string) => void;
  errors: Errors;
}) {
  const prefix = `taskSettings.${kind.kind}`;
  const own = Object.entries(errors).filter(([path]) => path === prefix || path.startsWith(`${prefix}.`));
  const heading = (
    <h3 className="text-sm font-semibold text-slate-900">
      {kind.title} <span className="font-mono text-xs font-normal text-slate-500">{kind.kind}</span>
      {!kind.inStudy ? <span className="ml-2 text-xs font-normal text-slate-500">(no items of this kind yet)</span> : null}
    </h3>
  );
  if (!kind.jsonSchema || !isSimpleSchema(kind.jsonSchema)) {
    return (
      <div data-testid={`kind-settings-${kind.kind}`}>
        {heading}
        <Field
          label="Settings (JSON)"
          error={own.map(([path, message]) => `${path.slice(prefix.length + 1) || "settings"}: ${message}`).join("; ") || undefined}
        >
          <textarea rows={4} value={json} onChange={(e) => onJson(e.target.value)} className={`${textareaClass} font-mono`} />
        </Field>
      </div>
    );
  }
  const properties = kind.jsonSchema.properties as Record<string, SchemaProperty>;
  return (
    <div data-testid={`kind-settings-${kind.kind}`}>
      {heading}
      <div className="mt-2 grid gap-4 sm:grid-cols-2">
        {Object.entries(properties).map(([field, spec]) => {
          const error = errors[`${prefix}.${field}`];
          const label = spec.title ?? field;
          const current = value[field] ?? spec.default;
          if (spec.type === "boolean") {
            return (
              <label key={field} className="flex items-start gap-2 text-sm">
                <input type="checkbox" className="mt-1" checked={current === true} onChange={(e) => onChange({ ...value, [field]: e.target.checked })} />
                <span>
                  <span className="font-medium text-slate-700">{label}</span>
                  {spec.description ? <span className="block text-xs text-slate-500">{spec.description}</span> : null}
                  {error ? (
                    <span className="block text-xs text-red-600" data-field-error>
                      {error}
                    </span>
                  ) : null}
                </span>
              </label>
            );
          }
          if (spec.enum) {
            return (
              <Field key={field} label={label} hint={spec.description} error={error}>
                <select
                  value={current === undefined ? "" : String(current)}
                  onChange={(e) => onChange({ ...value, [field]: spec.enum!.find((option) => String(option) === e.target.value) })}
                  className={numberClass}
                >
                  {current === undefined ? <option value="">(default)</option> : null}
                  {spec.enum.map((option) => (
                    <option key={String(option)} value={String(option)}>
                      {String(option)}
                    </option>
                  ))}
                </select>
              </Field>
            );
          }
          const numeric = spec.type === "number" || spec.type === "integer";
          return (
            <Field key={field} label={label} hint={spec.description} error={error}>
              <input
                type={numeric ? "number" : "text"}
                value={current === undefined || current === null ? "" : String(current)}
                onChange={(e) => {
                  const next = { ...value };
                  if (e.target.value === "") delete next[field];
                  else next[field] = numeric ? Number(e.target.value) : e.target.value;
                  onChange(next);
                }}
                className={numberClass}
              />
            </Field>
          );
        })}
      </div>
      {errors[prefix] ? (
        <p className="mt-1 text-xs text-red-600" data-field-error>
          {errors[prefix]}
        </p>
      ) : null}
    </div>
  );
}
