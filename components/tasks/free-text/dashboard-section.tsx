import type { AlphaFigure } from "@/lib/tasks/free-text/agreement";
import type { FreeTextSection } from "@/lib/tasks/free-text/dashboard";
import { GRADE_RUBRIC, GRADES } from "@/lib/tasks/shared/llm-match/rubric";
import { CsvDownload } from "@/components/charts/csv-download";
import { ExploreLlmPanel } from "@/components/dashboard/explore-llm-panel";
import { count, fixed, interval } from "@/components/dashboard/format";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";
import { WatchTable } from "@/components/tasks/shared/media/watch-table";

/**
 * The free-text section of the study dashboard (lib/tasks/free-text/dashboard.ts): the judge, the
 * LLM-Match score per category for people and each model run, the grade distribution, and the
 * judge measured against people who graded a sample with the same rubric (judge-human alpha,
 * interval, with its bootstrap interval; the people's own alpha beside it), with the grading
 * batch to download.
 */

function Alpha({ figure, label, testId }: { figure: AlphaFigure | null; label: string; testId: string }) {
  return (
    <div className="rounded-md border border-slate-200 px-3 py-2" data-testid={testId}>
      <p className="text-xs font-medium text-slate-600">{label}</p>
      {figure === null ? (
        <p className="text-sm text-slate-500">no answer graded twice yet</p>
      ) : figure.alpha === null ? (
        <p className="text-sm text-amber-800">undefined: {figure.reason}</p>
      ) : (
        <p className="tabular-nums">
          <span className="text-xl font-semibold text-slate-900">{fixed(figure.alpha, 3)}</span>{" "}
          <span className="text-xs text-slate-500">{figure.ci ? interval(figure.ci, 3) : figure.ciReason ? `n/a (${figure.ciReason})` : "(no interval)"}</span>
        </p>
      )}
      {figure ? (
        <p className="text-[11px] text-slate-500">
          Krippendorff&apos;s alpha, interval; {figure.method ?? "95% bootstrap"}; {count(figure.units)} answer{figure.units === 1 ? "" : "s"},{" "}
          {count(figure.values)} grades
        </p>
      ) : null}
    </div>
  );
}

function Distribution({ counts, label }: { counts: number[]; label: string }) {
  const total = counts.reduce((a, b) => a + b, 0);
  const max = Math.max(1, ...counts);
  return (
    <figure className="min-w-0" data-testid={`free-text-distribution-${label.toLowerCase()}`}>
      <figcaption className="mb-1 text-xs font-medium text-slate-600">
        {label}: {count(total)} graded
      </figcaption>
      <ol className="flex flex-col gap-0.5">
        {GRADES.map((grade) => (
          <li key={grade} className="grid grid-cols-[1.5rem_minmax(0,1fr)_3rem] items-center gap-1 text-xs" title={GRADE_RUBRIC[grade]}>
            <span className="text-right font-mono text-slate-600">{grade}</span>
            <span className="h-3 rounded-sm bg-slate-100">
              <span className="block h-3 rounded-sm bg-brand-500" style={{ width: `${(100 * counts[grade - 1]) / max}%` }} />
            </span>
            <span className="text-right tabular-nums text-slate-700">{counts[grade - 1]}</span>
          </li>
        ))}
      </ol>
    </figure>
  );
}

function Body({ section, slug }: { section: FreeTextSection; slug: string }) {
  const { judge } = section;
  const csvRows = section.rows.flatMap((row) => section.columns.map((column, i) => [row.category, column.label, row.cells[i].graded, row.cells[i].score]));
  return (
    <div className="flex flex-col gap-4" data-testid="free-text-section">
      <ExploreLlmPanel
        slug={slug}
        initial={section.llm}
        kind="free-text"
        title="LLM judge"
        unconfigured={
          <>
            <strong className="font-semibold text-slate-700">LLM judge: not configured.</strong> Set <code>SCORER_LLM_URL</code> (an OpenAI-compatible
            chat-completions endpoint), <code>SCORER_LLM_MODEL</code> and, if needed, <code>SCORER_LLM_API_KEY</code>; <code>FREE_TEXT_JUDGE_TEMPERATURE</code>{" "}
            and <code>FREE_TEXT_JUDGE_SEED</code> (default 0, 0) are sent with each request. Answers stay ungraded until a judge grades them.
          </>
        }
      />
      <p className="text-sm text-slate-700" data-testid="free-text-judge">
        {judge ? (
          <>
            Grades by <strong>{judge.synthetic ? `a SYNTHETIC judge (${judge.model}), not an LLM` : judge.model}</strong>,{" "}
            {judge.promptSha256 ? (
              <span data-testid="free-text-judge-prompt">
                the benchmark&apos;s prompt file (sha256{" "}
                <code title={judge.promptSha256.join(", ")}>{judge.promptSha256.map((hash) => hash.slice(0, 12)).join(", ")}</code>
                {judge.promptSha256.length > 1 ? ": without, with extra answers" : ""}), its reply read as OpenEQA&apos;s parse_score
              </span>
            ) : (
              <span data-testid="free-text-judge-prompt">
                Yardstick&apos;s own prompt {judge.promptVersion.split(";")[0]} (not OpenEQA&apos;s: scores are comparable with published OpenEQA numbers only
                with its prompt files and settings, FREE_TEXT_JUDGE_PROMPT_FILE)
              </span>
            )}
            , temperature {judge.temperature ?? "?"}, seed {judge.seed ?? "?"}
            {judge.maxTokens !== null ? `, at most ${judge.maxTokens} tokens` : ""}: {count(judge.graded)} answer
            {judge.graded === 1 ? "" : "s"} graded; {count(section.ungraded.people)} of people&apos;s and {count(section.ungraded.models)} of models&apos;
            answers not graded by it.
            {section.judges.length > 1
              ? ` (${section.judges.length - 1} other judge configuration${section.judges.length === 2 ? "" : "s"} also graded answers; the one with the most grades is shown.)`
              : ""}
          </>
        ) : (
          <>
            No answer is graded yet: {count(section.answers.people)} people&apos;s answers and {count(section.answers.models)} model predictions wait for the
            judge.
          </>
        )}
      </p>
      <div>
        <div className="mb-1 flex items-baseline justify-between gap-2">
          <h3 className="text-sm font-semibold text-slate-800">LLM-Match score by category (0-100)</h3>
          <CsvDownload fileName={`${slug}-llm-match`} header={["category", "who", "graded", "llm_match"]} rows={csvRows} />
        </div>
        <div className="overflow-x-auto rounded-md border border-slate-200">
          <table className="min-w-full text-sm" data-testid="free-text-table">
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="px-2 py-1.5 text-left font-medium">Category</th>
                {section.columns.map((column) => (
                  <th key={column.id} className="px-2 py-1.5 text-right font-medium">
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {section.rows.map((row) => (
                <tr key={row.category} className={`border-t border-slate-100 ${row.category === "All" ? "bg-slate-50 font-semibold" : ""}`}>
                  <th scope="row" className="px-2 py-1 text-left font-normal text-slate-800">
                    {row.category}
                  </th>
                  {row.cells.map((cell, i) => (
                    <td key={section.columns[i].id} className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                      {cell.score === null ? <span className="text-slate-300">–</span> : cell.score.toFixed(1)}
                      <span className="block text-[10px] font-normal text-slate-500">n={cell.graded}</span>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="mt-1 text-[11px] text-slate-500">
          LLM-Match (OpenEQA): the mean of 100 (grade − 1) / 4 over graded answers; ungraded answers are not counted.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Distribution counts={section.distribution.people} label="People" />
        <Distribution counts={section.distribution.models} label="Models" />
      </div>
      <div>
        <h3 className="mb-1 text-sm font-semibold text-slate-800">The judge measured against people</h3>
        <div className="grid gap-2 sm:grid-cols-2">
          <Alpha figure={section.agreement.judgeHuman} label="Judge and people (the judge as one more grader)" testId="free-text-judge-alpha" />
          <Alpha figure={section.agreement.humanHuman} label="People among themselves" testId="free-text-human-alpha" />
        </div>
        <p className="mt-1 text-[11px] text-slate-500">
          {count(section.agreement.humanGrades)} grade{section.agreement.humanGrades === 1 ? "" : "s"} by {count(section.agreement.graders)} grader
          {section.agreement.graders === 1 ? "" : "s"} on {count(section.agreement.gradingItems)} answer
          {section.agreement.gradingItems === 1 ? "" : "s"} in grading studies. Interval level: the score averages grades as equally spaced. Graders never see
          the judge&apos;s grade.
        </p>
        {section.gradingBatch.answers > 0 ? (
          <p className="mt-2 text-sm">
            <a
              className="font-medium text-brand-700 underline"
              download={`${slug}-grading-batch.jsonl`}
              href={`data:application/x-ndjson;charset=utf-8,${encodeURIComponent(section.gradingBatch.jsonl)}`}
              data-testid="free-text-grading-batch"
            >
              Download the grading batch
            </a>{" "}
            <span className="text-xs text-slate-500">
              ({count(section.gradingBatch.answers)} answers sampled, items.jsonl of the grading kind): import it into a new study, add graders who are not
              members of this one, and their grades appear here.
            </span>
          </p>
        ) : null}
      </div>
      {section.watch ? (
        <div>
          <h3 className="mb-1 text-sm font-semibold text-slate-800">Watching</h3>
          <WatchTable figures={section.watch} />
        </div>
      ) : null}
    </div>
  );
}

export const freeTextDashboardSection: KindDashboardSection<FreeTextSection> = {
  id: "free-text",
  title: (section) => `Free-text answers (LLM-Match): ${count(section.items)} question${section.items === 1 ? "" : "s"}`,
  description:
    "OpenEQA's LLM-Match: each answer graded 1-5 against the reference answers by an LLM judge, scored 100 (grade - 1) / 4, and the judge measured against people.",
  render: (section, slug) => <Body section={section} slug={slug} />,
};
