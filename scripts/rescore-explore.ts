/**
 * Rescores stored EXPLORE-Bench structured scores of an older scorer version (lib/scoring/explore-rescore.ts):
 *   node --conditions=react-server --import tsx scripts/rescore-explore.ts [--study <study id>]
 * The app server also does this once in the background when it starts.
 */
import { rescoreStaleExploreScores } from "@/lib/scoring/explore-rescore";

const at = process.argv.indexOf("--study");
const result = await rescoreStaleExploreScores(at > 0 ? { studyId: process.argv[at + 1] } : {});
console.log(
  `rescored ${result.responses} responses and ${result.predictions} model predictions${result.unreadable > 0 ? `; ${result.unreadable} unreadable left as they were` : ""}`,
);
process.exit(0);
