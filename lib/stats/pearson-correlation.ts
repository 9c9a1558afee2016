/**
 * Pearson product-moment correlation of paired samples: cov(x, y) / (sd(x) sd(y)), computed with
 * centred sums. Null when either sample is constant (the correlation is undefined there).
 * Source: Pearson 1895, "Notes on regression and inheritance in the case of two parents",
 * Proc. R. Soc. Lond. 58; equals R's cor(x, y, method = "pearson").
 * O(n).
 * @throws {Error} "pearsonCorrelation requires at least 2 data points", or samples of unequal length
 * @example
 * pearsonCorrelation([1, 2, 3], [2, 4, 7]); // 0.9933992677987828
 */
export function pearsonCorrelation(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new Error(`pearsonCorrelation requires samples of equal length (got ${x.length} and ${y.length})`);
  if (x.length < 2) throw new Error("pearsonCorrelation requires at least 2 data points");
  const n = x.length;
  let meanX = 0;
  let meanY = 0;
  for (let i = 0; i < n; i++) {
    meanX += x[i];
    meanY += y[i];
  }
  meanX /= n;
  meanY /= n;
  let crossSum = 0;
  let squaresX = 0;
  let squaresY = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - meanX;
    const dy = y[i] - meanY;
    crossSum += dx * dy;
    squaresX += dx * dx;
    squaresY += dy * dy;
  }
  if (squaresX === 0 || squaresY === 0) return null;
  return Math.max(-1, Math.min(1, crossSum / Math.sqrt(squaresX * squaresY)));
}
