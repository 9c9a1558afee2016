/**
 * The human-baseline reporting checklist of Wei et al., "Position: Human Baselines in Model
 * Evaluations Need Rigor and Transparency (With Recommendations & Reporting Checklist)", ICML 2025
 * (arXiv 2506.13776; the authors' repository kevinlwei/human-baselines, reporting_checklist/):
 * its 72 entries with the authors' own numbering and names, so that a report uses them as they are
 * (checklist.test.ts parses lib/report/__fixtures__/human-baselines-checklist.md against this list).
 */

export interface ChecklistSection {
  number: string;
  name: string;
}

export interface ChecklistEntry {
  /** the authors' numbering, e.g. "2.7.2.1" */
  number: string;
  /** the number of its section, e.g. "2" */
  section: string;
  name: string;
}

/** The answers the authors offer where an entry is a fixed choice. */
export const CHECKLIST_CHOICES = ["Yes", "Partial", "No", "Unknown-Unreported", "N/A"] as const;
export type ChecklistChoice = (typeof CHECKLIST_CHOICES)[number];

export const CHECKLIST_SECTIONS: readonly ChecklistSection[] = [
  { number: "0", name: "Paper Information" },
  { number: "1", name: "Baseline Design & Implementation" },
  { number: "2", name: "Baseliner Recruitment" },
  { number: "3", name: "Baseline Execution" },
  { number: "4", name: "Baseline Analysis" },
  { number: "5", name: "Baseline Documentation" },
];

export const CHECKLIST: readonly ChecklistEntry[] = [
  { number: "0.1", section: "0", name: "Paper Title" },
  { number: "0.2", section: "0", name: "Paper Link" },
  { number: "0.3", section: "0", name: "Publication Year" },
  { number: "0.4", section: "0", name: "Publication Venue" },
  { number: "0.5", section: "0", name: "Type of Eval" },
  { number: "0.6", section: "0", name: "Mode of Eval" },
  { number: "0.7", section: "0", name: "Language of Eval" },
  { number: "0.8", section: "0", name: "Evaluation Dataset Size" },
  { number: "0.9", section: "0", name: "AI Test Set Size" },
  { number: "0.10", section: "0", name: "AI Samples per Item" },
  { number: "1.1", section: "1", name: "Number of Baseliners" },
  { number: "1.2", section: "1", name: "Baseline Test Set Size" },
  { number: "1.2.1", section: "1", name: "Baseline Test Set Sampling Strategy" },
  { number: "1.3", section: "1", name: "Baseline Samples per Item" },
  { number: "1.4", section: "1", name: "Items per Baseliner" },
  { number: "1.5", section: "1", name: "Explicit Human/AI Adjustment" },
  { number: "1.6", section: "1", name: "Iterative Design" },
  { number: "1.7", section: "1", name: "Amount of Effort" },
  { number: "1.8", section: "1", name: "Power Analysis" },
  { number: "1.8.1", section: "1", name: "Minimum Detectable Effect Size" },
  { number: "1.9", section: "1", name: "Ethics Review" },
  { number: "1.10", section: "1", name: "Pre-Registration" },
  { number: "2.1", section: "2", name: "Population of Interest Identification" },
  { number: "2.1.1", section: "2", name: "Population of Interest Identification Criteria" },
  { number: "2.2", section: "2", name: "Baseliner Sampling Strategy" },
  { number: "2.3", section: "2", name: "Quality Control in Recruitment" },
  { number: "2.3.1", section: "2", name: "Quality Control Criteria for Baseliners" },
  { number: "2.3.2", section: "2", name: "Recruitment Exclusion Rate" },
  { number: "2.4", section: "2", name: "Author Baseliners" },
  { number: "2.5", section: "2", name: "Baseliner Train/Test Contamination" },
  { number: "2.6", section: "2", name: "Baseliner Training" },
  { number: "2.6.1", section: "2", name: "Baseliner Training Type" },
  { number: "2.6.2", section: "2", name: "Baseliner Training Compensation" },
  { number: "2.6.2.1", section: "2", name: "Baseliner Training Compensation Amount" },
  { number: "2.7", section: "2", name: "Baseliner Testing Compensation" },
  { number: "2.7.1", section: "2", name: "Baseliner Testing Compensation Amount" },
  { number: "2.7.2", section: "2", name: "Baseliner Testing Performance Bonus" },
  { number: "2.7.2.1", section: "2", name: "Baseliner Testing Performance Bonus Amount" },
  { number: "2.7.3", section: "2", name: "Baseliner Testing Compensation Structure" },
  { number: "2.7.3.1", section: "2", name: "Baseliner Testing Compensation Structure Details" },
  { number: "3.1", section: "3", name: "Instrument Length" },
  { number: "3.1.1", section: "3", name: "Item Randomization" },
  { number: "3.2", section: "3", name: "Quality Control in Execution" },
  { number: "3.2.1", section: "3", name: "Quality Control in Execution Criteria" },
  { number: "3.2.2", section: "3", name: "Execution Exclusion Rate" },
  { number: "3.3", section: "3", name: "UI Equivalence" },
  { number: "3.3.1", section: "3", name: "GUI vs. API" },
  { number: "3.3.2", section: "3", name: "UI Equivalence Adjustment" },
  { number: "3.4", section: "3", name: "Instruction Equivalence" },
  { number: "3.4.1", section: "3", name: "Instruction Equivalence Adjustment" },
  { number: "3.5", section: "3", name: "Tool Access Equivalence" },
  { number: "3.5.1", section: "3", name: "Tool Access Equivalence Enforcement" },
  { number: "3.6", section: "3", name: "Explanations" },
  { number: "4.1", section: "4", name: "Statistical Significance" },
  { number: "4.1.1", section: "4", name: "Statistical Significance Test" },
  { number: "4.2", section: "4", name: "Uncertainty Estimate" },
  { number: "4.2.1", section: "4", name: "Estimate Type" },
  { number: "4.3", section: "4", name: "Evaluation Metric Equivalence" },
  { number: "4.4", section: "4", name: "Evaluation Scoring Criteria Equivalence" },
  { number: "4.5", section: "4", name: "Evaluation Scoring Method Equivalence" },
  { number: "4.6", section: "4", name: "Quality Control Robustness" },
  { number: "5.1", section: "5", name: "Additional Reporting" },
  { number: "5.1.1", section: "5", name: "Reporting Sample Demographics" },
  { number: "5.1.2", section: "5", name: "Reporting Baseline Instructions" },
  { number: "5.1.3", section: "5", name: "Reporting Time to Completion" },
  { number: "5.1.4", section: "5", name: "AI Tool Versions" },
  { number: "5.1.5", section: "5", name: "Completion Rate" },
  { number: "5.2", section: "5", name: "Baseline Data Availability" },
  { number: "5.2.1", section: "5", name: "Individual Baseline Data Availability" },
  { number: "5.2.2", section: "5", name: "Baseline Data Non-Availability Justification" },
  { number: "5.3", section: "5", name: "Experimental Materials Availability" },
  { number: "5.4", section: "5", name: "Analysis Code Availability" },
];

export type ChecklistNumber = (typeof CHECKLIST)[number]["number"];
