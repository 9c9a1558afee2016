import type { ReactNode } from "react";
import type { StudyDashboard } from "@/lib/dashboard/study-dashboard";
import type { StudyProgress } from "@/lib/dashboard/progress";
import { AGREEMENT_PLAN_PER_CELL, DEFAULT_TAG } from "@/lib/dashboard/constants";
import { CI_METHOD_LABELS, CI_METHODS } from "@/lib/dashboard/params";
import type { choiceDefaults } from "@/lib/dashboard/study-dashboard";
import { ScrollBox } from "@/components/ui/scroll-box";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { CountBarChart } from "@/components/charts/bar-chart";
import { ReliabilityDiagram } from "@/components/charts/reliability-diagram";
import { RangeChart } from "@/components/charts/range-chart";
import { CsvDownload } from "@/components/charts/csv-download";
import { AccuracySection, kindShort } from "@/components/dashboard/accuracy-section";
import { pooledConditionLabels } from "@/lib/dashboard/accuracy";
import { AgreementSection } from "@/components/dashboard/agreement-section";
import { dashboardSections } from "@/components/tasks/dashboard-sections";
import { AgreementPlanSection } from "@/components/dashboard/agreement-plan-section";
import { ModelRunsPanel } from "@/components/dashboard/model-runs-panel";
import { ComparisonTable } from "@/components/dashboard/comparison-section";
import { count, duration, fixed, pct } from "@/components/dashboard/format";
import { metricsOf, planAnswersNote, sharedWords } from "@/components/dashboard/kind-words";

/**
 * The sections of a study's dashboard (app/(research)/research/studies/[slug]/dashboard), top to
 * bottom: each takes the computed dashboard (lib/dashboard/study-dashboard.ts) and lays out its part.
 */

type Defaults = ReturnType<typeof choiceDefaults>;

/** What every section reads beside the dashboard: the study's slug, the annotators' names and the slicing tag's title. */
export interface SectionProps {
  d: StudyDashboard;
  slug: string;
  names: string[];
  tagTitle: string;
  scopeName: string;
}

function Stat({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <Card className="px-5 py-4">
      <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</div>
      <div className="mt-1 text-2xl font-semibold tabular-nums">{value}</div>
      {note ? <div className="mt-0.5 text-xs text-slate-500">{note}</div> : null}
    </Card>
  );
}

/** The four progress figures (live, from the tallies): the dashboard's first row, and all a view not computed yet shows. */
export function ProgressStats({ progress }: { progress: StudyProgress }) {
  return (
    <div className="grid gap-4 md:grid-cols-4">
      <Stat
        label="Responses"
        value={<span data-testid="progress-responses">{`${count(progress.done)} of ${count(progress.expected)}`}</span>}
        note={`${progress.conditions > 1 ? `items x ${progress.conditions} conditions` : "items"} x annotators (k=${progress.overlap}), ${pct(progress.expected ? progress.done / progress.expected : null, 1)}%${progress.gold > 0 ? `; answers to the ${progress.gold} gold checks apart` : ""}`}
      />
      <Stat
        label="Items complete"
        value={`${count(progress.itemsComplete)} of ${count(progress.items)}`}
        note={`with k=${progress.overlap} main answers${progress.conditions > 1 ? " in every condition" : ""}`}
      />
      <Stat label="Active now" value={count(progress.activeNow)} note={`annotators with events in the last ${progress.activeWindowMinutes} minutes`} />
      <Stat label="Agreement assignments" value={`${count(progress.agreementDone)} of ${count(progress.agreementAssigned)}`} note="from the agreement plan" />
    </div>
  );
}

/** The view's controls: the slicing tag, whose answers, the agreement encoding, and which answers count. */
export function dashboardControls(d: StudyDashboard, defaults: Defaults) {
  const { choices, annotators } = d;
  return [
    {
      name: "tag",
      label: "Slice by tag",
      defaultValue: defaults.tag,
      value: choices.tagKey ?? "",
      options: choices.tagKeys.length ? choices.tagKeys.map((t) => ({ value: t.key, label: t.key })) : [{ value: "", label: "(no tags)" }],
    },
    {
      name: "annotator",
      label: "Accuracy & confidence of",
      defaultValue: defaults.annotator,
      value: choices.annotator === null ? "all" : annotators[choices.annotator].id,
      options: [{ value: "all", label: "All annotators (pooled)" }, ...annotators.map((a) => ({ value: a.id, label: a.name }))],
    },
    ...(choices.encoding
      ? [
          {
            name: "encoding",
            label: "Agreement encoding",
            defaultValue: defaults.encoding,
            value: choices.encoding.id,
            options: choices.encodings.map((e) => ({ value: e.id, label: e.label })),
          },
          {
            name: "level",
            label: "Alpha level",
            defaultValue: defaults.level,
            value: choices.level,
            options: choices.levels.map((l) => ({ value: l, label: l === "custom" ? "Kendall tau distance" : l })),
          },
          {
            name: "ci",
            label: "Alpha interval",
            defaultValue: defaults.ci,
            value: choices.ci,
            options: CI_METHODS.map((m) => ({ value: m, label: CI_METHOD_LABELS[m] })),
          },
        ]
      : []),
    ...(choices.excludedItems > 0
      ? [
          {
            name: "reviewed",
            label: "Items that failed review",
            defaultValue: defaults.reviewed,
            value: choices.includeExcluded ? "with" : "without",
            options: [
              { value: "without", label: `Left out (${choices.excludedItems})` },
              { value: "with", label: "Included" },
            ],
          },
        ]
      : []),
    ...(d.accuracy.planAnswers > 0
      ? [
          {
            name: "plan",
            label: "Agreement-plan answers in accuracy",
            defaultValue: defaults.plan,
            value: choices.includePlanAnswers ? "with" : "without",
            options: [
              { value: "without", label: `Left out (${count(d.accuracy.planAnswers)}): main annotation only` },
              { value: "with", label: "Included" },
            ],
          },
        ]
      : []),
    {
      name: "participants",
      label: "Excluded participants",
      defaultValue: defaults.participants,
      value: choices.includeExcludedParticipants ? "with" : "without",
      options: [
        { value: "without", label: `Left out (${choices.excludedParticipants})` },
        { value: "with", label: "Included" },
      ],
    },
  ];
}

/** The line under the controls: what every figure leaves out or includes, and when its answers were read. */
export function DashboardNote({ d }: { d: StudyDashboard }) {
  const { choices } = d;
  const asOf = new Date(d.asOf.loadedAt).toISOString().slice(11, 19);
  // from a read replica: the figures are as of the older of the read and the replica's replay point
  const replicaAsOf = d.asOf.replica.replica
    ? d.asOf.replica.asOf === null
      ? null
      : new Date(Math.min(d.asOf.loadedAt, d.asOf.replica.asOf)).toISOString().replace("T", " ").slice(0, 19)
    : undefined;
  return (
    <p className="text-xs text-slate-500">
      Practice items are excluded from every figure
      {choices.excludedItems > 0
        ? choices.includeExcluded
          ? `; answers to the ${choices.excludedItems} items that failed review are included`
          : `; so are answers to the ${choices.excludedItems} items that failed review`
        : ""}
      {choices.excludedParticipants > 0
        ? choices.includeExcludedParticipants
          ? `; answers of the ${choices.excludedParticipants} excluded participant${choices.excludedParticipants === 1 ? "" : "s"} are included`
          : `; so are answers of the ${choices.excludedParticipants} excluded participant${choices.excludedParticipants === 1 ? "" : "s"} (failed the gold rule)`
        : ""}
      {d.accuracy.planAnswers > 0 ? planAnswersNote(d.kinds, d.accuracy.planAnswers, choices.includePlanAnswers) : ""}. Figures from {count(d.asOf.responses)}{" "}
      answers read at {asOf} UTC
      {replicaAsOf !== undefined ? (
        <span data-testid="replica-freshness">
          {replicaAsOf === null ? " from the read replica, which has replayed nothing yet" : ` from the read replica: figures as of ${replicaAsOf} UTC`}
        </span>
      ) : null}
      {d.asOf.stale ? "; newer answers arrived since (large studies refresh at most once a minute)" : ""}.
    </p>
  );
}

/** Progress: the four figures, each annotator's work and the answers per day. */
export function ProgressSection({ d, slug }: Pick<SectionProps, "d" | "slug">) {
  const { progress } = d;
  return (
    <section id="progress" className="scroll-mt-28 space-y-4">
      <h2 className="text-lg font-semibold">Progress</h2>
      <ProgressStats progress={progress} />
      {/* the chart's column stays narrow enough for the table's last column at 1280 px */}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,20rem)] 2xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <Card className="min-w-0">
          <Table label="Progress per annotator">
            <thead>
              <tr>
                <Th>Annotator</Th>
                <Th align="right">
                  <span title="main items answered / items shown to the annotator (an item fetched in advance but not yet shown does not count)">
                    Main done / begun
                  </span>
                </Th>
                <Th align="right">Agreement done</Th>
                <Th align="right">Practice</Th>
                <Th>Last answer</Th>
                <Th />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {progress.perAnnotator.map((p) => (
                <tr key={p.userId}>
                  {/* long labels wrap whole: participants' labels often differ only at their end */}
                  <Td className="min-w-[8rem] max-w-[14rem] whitespace-normal font-medium [overflow-wrap:anywhere]">{p.name}</Td>
                  <Td align="right" className="tabular-nums">
                    {count(p.mainDone)} <span className="text-slate-400">/ {count(p.mainAssigned)}</span>
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {count(p.agreementDone)} <span className="text-slate-400">/ {count(p.agreementAssigned)}</span>
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {count(p.practiceDone)}
                  </Td>
                  <Td className="text-xs text-slate-500">{p.lastResponseAt ? new Date(p.lastResponseAt).toISOString().slice(0, 16).replace("T", " ") : "–"}</Td>
                  <Td>{p.activeNow ? <Badge tone="green">active</Badge> : null}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
        <Card className="p-4">
          {progress.perDay.length > 0 ? (
            <CountBarChart
              title="Answers per day (UTC)"
              data={progress.perDay.map((p) => ({ x: p.day.slice(5), y: p.responses }))}
              xLabel="day"
              yLabel="answers"
              fileName={`${slug}-answers-per-day`}
            />
          ) : (
            <p className="text-sm text-slate-500">No answers yet.</p>
          )}
        </Card>
      </div>
    </section>
  );
}

/** Accuracy by task and tag, people beside the model runs. */
export function AccuracyCard({ d, slug, tagTitle, scopeName }: Pick<SectionProps, "d" | "slug" | "tagTitle" | "scopeName">) {
  const { choices } = d;
  return (
    <section id="accuracy" className="scroll-mt-28">
      <Card>
        <CardHeader
          title={`Accuracy by task and ${tagTitle}`}
          description={`${d.kinds
            .map((k) => k.benchmark)
            .filter((b, i, all) => all.indexOf(b) === i)
            .join(", ")} metrics (${metricsOf(d.kinds)
            .map((m) => `${m.id}: ${m.label.toLowerCase()}`)
            .join(", ")}) for ${scopeName}, beside imported model runs.`}
        />
        <CardBody>
          {d.accuracy.rows.length === 0 ? (
            <p className="text-sm text-slate-500">No answers from {scopeName} yet.</p>
          ) : (
            <AccuracySection
              rows={d.accuracy.rows}
              modelRows={d.accuracy.modelRows}
              kinds={d.kinds}
              tagKey={choices.tagKey}
              tagValues={d.accuracy.tagValues}
              slug={slug}
            />
          )}
        </CardBody>
      </Card>
    </section>
  );
}

/** The sections the study's kinds register (components/tasks/dashboard-sections.ts). */
export function KindSections({ d, slug }: Pick<SectionProps, "d" | "slug">) {
  return (
    <>
      {dashboardSections.map((entry) => {
        const view = entry.view(d, slug);
        return view ? (
          <section key={entry.id} id={entry.id} className="scroll-mt-28">
            <Card>
              <CardHeader title={view.title} description={view.description} />
              <CardBody>{view.body}</CardBody>
            </Card>
          </section>
        ) : null;
      })}
    </>
  );
}

/** Krippendorff's alpha between annotators. */
export function AgreementCard({ d, slug, names }: Pick<SectionProps, "d" | "slug" | "names">) {
  const { choices } = d;
  return (
    <section id="agreement" className="scroll-mt-28">
      <Card>
        <CardHeader
          title="Agreement"
          description="Krippendorff's alpha between annotators on items with two or more answers (main and agreement work). The encoding moves the number a lot: it is named with every value."
        />
        <CardBody>
          {d.agreement ? (
            d.agreement.overall.items === 0 ? (
              <p className="text-sm text-slate-500">
                No item has two annotators&apos; answers yet. Build the agreement plan below, or raise the study&apos;s overlap.
              </p>
            ) : (
              <AgreementSection agreement={d.agreement} annotatorNames={names} kinds={d.kinds} tagKey={choices.tagKey} slug={slug} />
            )
          ) : choices.encoding ? (
            // the kinds have an encoding (e.g. GridWM's choice-nominal), there is just nothing to agree on yet
            <p className="text-sm text-slate-500" data-testid="agreement-empty">
              No item has two annotators&apos; answers yet (encoding: {choices.encoding.label}). Build the agreement plan below, or raise the study&apos;s
              overlap.
            </p>
          ) : (
            <p className="text-sm text-slate-500">This study&apos;s task kinds define no agreement encoding.</p>
          )}
        </CardBody>
      </Card>
    </section>
  );
}

/** The agreement plan: its sample and its progress. */
export function AgreementPlanCard({ d, slug, names }: Pick<SectionProps, "d" | "slug" | "names">) {
  const { choices } = d;
  // a benchmark's name on the plan's card only when every kind of the study gives it (components/dashboard/kind-words.ts)
  const planOrigin = sharedWords(d.kinds, "agreementPlan")?.origin;
  return (
    <section id="agreement-plan" className="scroll-mt-28">
      <Card>
        <CardHeader title="Agreement plan" description={`Cross-annotation of a stratified sample${planOrigin ? `, as in ${planOrigin}` : ""}.`} />
        <CardBody>
          <AgreementPlanSection
            plan={d.plan}
            annotatorNames={names}
            slug={slug}
            tagKey={choices.tagKeys.some((t) => t.key === DEFAULT_TAG) ? DEFAULT_TAG : (choices.tagKey ?? DEFAULT_TAG)}
            perCell={AGREEMENT_PLAN_PER_CELL}
            kinds={d.kinds}
          />
        </CardBody>
      </Card>
    </section>
  );
}

/** Stated confidence against correctness. */
export function ConfidenceCard({ d, slug, scopeName }: Pick<SectionProps, "d" | "slug" | "scopeName">) {
  const pooled = pooledConditionLabels(d.accuracy.rows);
  return (
    <section id="confidence" className="scroll-mt-28">
      <Card>
        <CardHeader
          title="Confidence"
          description={`Stated confidence against correctness (right or wrong by the kind's scorer) for ${scopeName}, over the answers that have a correctness. ${
            d.study.confidenceScale === "LIKERT_5"
              ? "The 1–5 scale is read as a probability of being right: 1 (guessing) as the item's chance where its kind defines one (1/options on a choice item; 0 otherwise), 5 as 100%, linear between: p = chance + (1 − chance)(v − 1)/4. One bin per scale point."
              : "The percentage is read as the stated probability of being right, as given. Ten bins of 10 points."
          }`}
        />
        <CardBody>
          {d.calibration ? (
            <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
              <ReliabilityDiagram bins={d.calibration.bins} fileName={`${slug}-reliability`} />
              <dl className="grid grid-cols-2 content-start gap-3 text-sm" data-testid="calibration-stats">
                <div className="rounded-md border border-slate-200 px-3 py-2">
                  <dt className="text-xs text-slate-500">Expected calibration error</dt>
                  <dd className="text-lg font-semibold tabular-nums">{fixed(d.calibration.ece, 3)}</dd>
                </div>
                <div className="rounded-md border border-slate-200 px-3 py-2">
                  <dt className="text-xs text-slate-500">Brier score</dt>
                  <dd className="text-lg font-semibold tabular-nums">{fixed(d.calibration.brier, 3)}</dd>
                </div>
                <div className="rounded-md border border-slate-200 px-3 py-2">
                  <dt className="text-xs text-slate-500">Mean confidence, right</dt>
                  <dd className="text-lg font-semibold tabular-nums">{pct(d.calibration.meanConfidenceRight, 1)}%</dd>
                  <dd className="text-xs text-slate-500">{count(d.calibration.right)} answers</dd>
                </div>
                <div className="rounded-md border border-slate-200 px-3 py-2">
                  <dt className="text-xs text-slate-500">Mean confidence, wrong</dt>
                  <dd className="text-lg font-semibold tabular-nums">{pct(d.calibration.meanConfidenceWrong, 1)}%</dd>
                  <dd className="text-xs text-slate-500">{count(d.calibration.wrong)} answers</dd>
                </div>
                <p className="col-span-2 text-xs text-slate-500" data-testid="calibration-n">
                  Over {count(d.calibration.n)} answers with a correctness
                  {d.calibration.withoutCorrectness > 0
                    ? `; ${count(d.calibration.withoutCorrectness)} without one (an item without a key, an answer not graded yet) are left out`
                    : ""}
                  .{pooled.length > 0 ? ` It pools the study's conditions (${pooled.join(", ")}); the kind's section shows calibration per condition.` : ""}
                </p>
                <p className="col-span-2 text-xs text-slate-500">
                  ECE: the answer-weighted gap between accuracy and mean confidence over the bins (0 is perfect). Brier: mean squared gap between confidence and
                  0/1 correctness.
                </p>
              </dl>
            </div>
          ) : (
            <p className="text-sm text-slate-500">No answers with a correctness yet (answers to items without a key, and answers not graded yet, have none).</p>
          )}
        </CardBody>
      </Card>
    </section>
  );
}

/** Active and wall time per item, and each annotator's relative speed. */
export function TimeCard({ d, slug, names, tagTitle }: Pick<SectionProps, "d" | "slug" | "names" | "tagTitle">) {
  return (
    <section id="time" className="scroll-mt-28">
      <Card>
        <CardHeader
          title="Time per item"
          description={`Active time (trajectory gaps capped at the study's idle limit) and wall time, by task and ${tagTitle}: median and interquartile range.`}
        />
        <CardBody className="space-y-6">
          <div>
            <div className="mb-1 flex justify-end">
              <CsvDownload
                fileName={`${slug}-time-by-${tagTitle}`}
                header={["kind", tagTitle, "n", "active_median_ms", "active_q1_ms", "active_q3_ms", "wall_median_ms", "wall_q1_ms", "wall_q3_ms"]}
                rows={d.time.cells.map((c) => [c.kind, c.tag, c.active.n, c.active.median, c.active.q1, c.active.q3, c.wall.median, c.wall.q1, c.wall.q3])}
              />
            </div>
            <ScrollBox className="rounded-md border border-slate-200" label="Time table">
              <table className="min-w-full text-sm" data-testid="time-table">
                <thead className="bg-slate-50">
                  <tr className="text-xs font-semibold uppercase tracking-wide text-slate-500">
                    <th className="px-3 py-2 text-left">Task</th>
                    <th className="px-3 py-2 text-right">{tagTitle}</th>
                    <th className="px-3 py-2 text-right">N</th>
                    <th className="px-3 py-2 text-right">Active median</th>
                    <th className="px-3 py-2 text-right">Active IQR</th>
                    <th className="px-3 py-2 text-right">Wall median</th>
                    <th className="px-3 py-2 text-right">Wall IQR</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 tabular-nums">
                  {d.time.cells.map((c) => {
                    const kind = d.kinds.find((k) => k.kind === c.kind);
                    return (
                      <tr key={`${c.kind}-${c.tag}`}>
                        <td className="px-3 py-1.5 text-slate-700">{kind ? kindShort(kind) : c.kind}</td>
                        <td className="px-3 py-1.5 text-right">{c.tag}</td>
                        <td className="px-3 py-1.5 text-right text-slate-500">{count(c.active.n)}</td>
                        <td className="px-3 py-1.5 text-right font-medium">{duration(c.active.median)}</td>
                        <td className="px-3 py-1.5 text-right text-slate-500">
                          {duration(c.active.q1)} – {duration(c.active.q3)}
                        </td>
                        <td className="px-3 py-1.5 text-right">{duration(c.wall.median)}</td>
                        <td className="px-3 py-1.5 text-right text-slate-500">
                          {duration(c.wall.q1)} – {duration(c.wall.q3)}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </ScrollBox>
          </div>
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]">
            <RangeChart
              title="Active time per item, by annotator (box: IQR, dot: median; ⚑ far faster)"
              rows={d.time.perAnnotator.map((p) => ({
                label: names[p.annotator],
                min: p.active.min / 1000,
                q1: p.active.q1 / 1000,
                median: p.active.median / 1000,
                q3: p.active.q3 / 1000,
                max: p.active.max / 1000,
                flagged: p.farFaster,
              }))}
              fileName={`${slug}-active-time-by-annotator`}
              xLabel="seconds"
            />
            <div>
              <ScrollBox label="Relative speed table">
                <table className="min-w-full text-sm" data-testid="speed-table">
                  <thead>
                    <tr className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                      <th className="px-2 py-1.5">Annotator</th>
                      <th
                        className="px-2 py-1.5 text-right"
                        title="median over the annotator's answers of active time / the median of the answer's task x tag cell"
                      >
                        Relative time
                      </th>
                      <th className="px-2 py-1.5" />
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {d.time.perAnnotator.map((p) => (
                      <tr key={p.annotator}>
                        <td className="px-2 py-1.5">{names[p.annotator]}</td>
                        <td className="px-2 py-1.5 text-right tabular-nums">×{p.relativeSpeed.toFixed(2)}</td>
                        <td className="px-2 py-1.5">{p.farFaster ? <Badge tone="red">far faster</Badge> : null}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollBox>
              <p className="mt-2 text-xs text-slate-500">
                ×1.00 = typical for the same task and {tagTitle}. Far faster: a modified z-score below −3.5 on the log of these figures (Iglewicz &amp;
                Hoaglin). {d.time.flagNote ?? ""}
              </p>
            </div>
          </div>
        </CardBody>
      </Card>
    </section>
  );
}

/** Humans against each model, and the model runs. */
export function ModelsCard({ d, slug, comparisonSearch }: Pick<SectionProps, "d" | "slug"> & { comparisonSearch: string }) {
  const { choices } = d;
  return (
    <section id="models" className="scroll-mt-28">
      <Card>
        <CardHeader
          title="Humans against models"
          description="Model answers (imported runs and agents that played through the interface) scored by the same scorer; they appear as rows in the accuracy table and dashed lines in its charts."
        />
        <CardBody className="space-y-6">
          <ComparisonTable comparison={d.comparison} kinds={d.kinds} tagKey={choices.tagKey} slug={slug} search={comparisonSearch} />
          <ModelRunsPanel slug={slug} runs={d.models.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() }))} />
        </CardBody>
      </Card>
    </section>
  );
}
