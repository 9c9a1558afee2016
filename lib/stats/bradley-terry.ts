/**
 * Bradley-Terry strengths by the MM algorithm, for pairwise preferences between k players (models).
 */

export interface PairwiseComparison {
  /** player indices 0..k-1 */
  i: number;
  j: number;
  /** i's score in this comparison: 1 (i preferred), 0 (j preferred), 0.5 (a tie, half to each) */
  outcome: 1 | 0 | 0.5;
  /** how many times it counts (bootstrap weights); default 1 */
  weight?: number;
}

export interface BradleyTerryResult {
  /** strengths normalised to sum 1 (Hunter's gamma); null when the MLE does not exist (see reason) */
  strengths: number[] | null;
  /** wins of each player, ties counted half */
  wins: number[];
  /** comparisons each player was in */
  comparisons: number[];
  iterations: number;
  converged: boolean;
  reason?: string;
}

/**
 * True when every player can be reached from every other along "beat" edges (i -> j when i won
 * against j at least once, a tie counting as a half win for both): Hunter's Assumption 1, under
 * which the Bradley-Terry likelihood has a unique maximum with all strengths positive.
 */
export function bradleyTerryIdentifiable(k: number, comparisons: readonly PairwiseComparison[]): boolean {
  if (k <= 1) return k === 1;
  const beats: number[][] = Array.from({ length: k }, () => []);
  const beaten: number[][] = Array.from({ length: k }, () => []);
  for (const c of comparisons) {
    if ((c.weight ?? 1) <= 0 || c.i === c.j) continue;
    if (c.outcome > 0) {
      beats[c.i].push(c.j);
      beaten[c.j].push(c.i);
    }
    if (c.outcome < 1) {
      beats[c.j].push(c.i);
      beaten[c.i].push(c.j);
    }
  }
  const reachesAll = (edges: number[][]) => {
    const seen = new Uint8Array(k);
    const stack = [0];
    seen[0] = 1;
    let count = 1;
    while (stack.length) {
      for (const next of edges[stack.pop()!]) {
        if (!seen[next]) {
          seen[next] = 1;
          count++;
          stack.push(next);
        }
      }
    }
    return count === k;
  };
  return reachesAll(beats) && reachesAll(beaten);
}

/**
 * Bradley-Terry maximum-likelihood strengths by the MM algorithm: gamma_i <- W_i / sum_{j != i}
 * N_ij / (gamma_i + gamma_j), then normalised to sum 1, until no strength changes by more than
 * `tolerance` (relative) or `maxIterations`. W_i counts i's wins with ties half to each side;
 * N_ij is the (weighted) number of comparisons of i and j. Strengths are null when the data do not
 * identify them (bradleyTerryIdentifiable false: a player never wins, or never loses, against the
 * rest).
 * Source: Hunter 2004, "MM algorithms for generalized Bradley-Terry models", Annals of Statistics
 * 32(1), eq. (3); ties counted as half a win to each (as in Chatbot Arena's and GENAI-Arena's tables).
 * O(iterations x (k^2 + comparisons)).
 * @example
 * // A beats B 3 of 4 times: gamma = [0.75, 0.25]
 * bradleyTerry(2, [{ i: 0, j: 1, outcome: 1, weight: 3 }, { i: 0, j: 1, outcome: 0 }]).strengths;
 */
export function bradleyTerry(
  k: number,
  comparisons: readonly PairwiseComparison[],
  options: { tolerance?: number; maxIterations?: number } = {},
): BradleyTerryResult {
  if (!Number.isInteger(k) || k < 1) throw new Error("bradleyTerry requires a positive number of players");
  const tolerance = options.tolerance ?? 1e-12;
  const maxIterations = options.maxIterations ?? 10_000;
  const wins = new Array<number>(k).fill(0);
  const counts = new Array<number>(k).fill(0);
  const pairs = Array.from({ length: k }, () => new Float64Array(k));
  for (const c of comparisons) {
    const w = c.weight ?? 1;
    if (c.i === c.j || w <= 0) continue;
    if (c.i < 0 || c.j < 0 || c.i >= k || c.j >= k) throw new Error(`bradleyTerry: player index out of range (${c.i}, ${c.j})`);
    wins[c.i] += w * c.outcome;
    wins[c.j] += w * (1 - c.outcome);
    counts[c.i] += w;
    counts[c.j] += w;
    pairs[c.i][c.j] += w;
    pairs[c.j][c.i] += w;
  }
  if (!bradleyTerryIdentifiable(k, comparisons)) {
    return {
      strengths: null,
      wins,
      comparisons: counts,
      iterations: 0,
      converged: false,
      reason: "a model never wins or never loses against the others (Hunter's Assumption 1 fails)",
    };
  }
  let gamma = new Array<number>(k).fill(1 / k);
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    const next = new Array<number>(k);
    for (let i = 0; i < k; i++) {
      let denominator = 0;
      for (let j = 0; j < k; j++) if (j !== i && pairs[i][j] > 0) denominator += pairs[i][j] / (gamma[i] + gamma[j]);
      next[i] = denominator > 0 ? wins[i] / denominator : gamma[i];
    }
    const total = next.reduce((sum, value) => sum + value, 0);
    let change = 0;
    for (let i = 0; i < k; i++) {
      next[i] /= total;
      change = Math.max(change, Math.abs(next[i] - gamma[i]) / gamma[i]);
    }
    gamma = next;
    if (change < tolerance) return { strengths: gamma, wins, comparisons: counts, iterations: iteration, converged: true };
  }
  return { strengths: gamma, wins, comparisons: counts, iterations: maxIterations, converged: false, reason: `not converged in ${maxIterations} iterations` };
}
