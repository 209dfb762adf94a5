// Weighted logistic and softmax regression with an L2 penalty, for the stage selector's
// training (bench/train-selector.mjs): small dense problems (a thousand rows, forty
// features), fitted deterministically, no randomness anywhere. Rows are arrays of numbers;
// features are standardised by the caller (standardiser) so one penalty suits them all.

/** Mean and scale of each column of `rows` (a constant column gets scale 1). */
export function standardiser(rows) {
  const n = rows.length;
  const d = rows[0]?.length ?? 0;
  const mean = new Array(d).fill(0);
  const scale = new Array(d).fill(0);
  for (const row of rows) for (let j = 0; j < d; j++) mean[j] += row[j] / n;
  for (const row of rows) for (let j = 0; j < d; j++) scale[j] += (row[j] - mean[j]) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = scale[j] > 1e-12 ? Math.sqrt(scale[j]) : 1;
  return { mean, scale, apply: (row) => row.map((x, j) => (x - mean[j]) / scale[j]) };
}

/** Solves A x = b (A symmetric positive definite) by Gaussian elimination with pivoting. */
function solve(A, b) {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    const pivot = M[c][c] || 1e-12;
    for (let r = c + 1; r < n; r++) {
      const f = M[r][c] / pivot;
      if (f !== 0) for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k];
    x[r] = s / (M[r][r] || 1e-12);
  }
  return x;
}

const sigmoid = (z) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/**
 * Binary logistic regression by Newton's method: minimises
 * sum_i w_i * logloss(y_i, sigmoid(b + x_i . beta)) / sum_i w_i + lambda/2 |beta|^2
 * (the bias is not penalised). `y` holds 0 or 1, `w` non-negative weights.
 */
export function fitLogistic(X, y, w, { lambda = 0.01, iterations = 50 } = {}) {
  const d = X[0]?.length ?? 0;
  const total = w.reduce((a, b) => a + b, 0) || 1;
  let beta = new Array(d + 1).fill(0); // [bias, ...weights]
  for (let it = 0; it < iterations; it++) {
    const grad = new Array(d + 1).fill(0);
    const H = Array.from({ length: d + 1 }, () => new Array(d + 1).fill(0));
    X.forEach((row, i) => {
      if (w[i] === 0) return;
      const x = [1, ...row];
      const p = sigmoid(x.reduce((s, v, j) => s + v * beta[j], 0));
      const wi = w[i] / total;
      const g = wi * (p - y[i]);
      const h = wi * Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j <= d; j++) {
        grad[j] += g * x[j];
        for (let k = 0; k <= j; k++) H[j][k] += h * x[j] * x[k];
      }
    });
    for (let j = 0; j <= d; j++) for (let k = 0; k < j; k++) H[k][j] = H[j][k];
    for (let j = 1; j <= d; j++) {
      grad[j] += lambda * beta[j];
      H[j][j] += lambda;
    }
    H[0][0] += 1e-9;
    const step = solve(H, grad);
    beta = beta.map((b, j) => b - step[j]);
    if (Math.max(...step.map(Math.abs)) < 1e-10) break;
  }
  return { bias: beta[0], weights: beta.slice(1) };
}

/** The linear score of a binary model: positive means class 1. */
export function logisticScore(model, row) {
  return row.reduce((s, v, j) => s + v * model.weights[j], model.bias);
}

/**
 * Softmax (multinomial logistic) regression by full-batch gradient descent from zero, a
 * fixed number of steps: `y` holds class indices 0..k-1, `w` weights.
 */
export function fitSoftmax(X, y, w, k, { lambda = 0.01, iterations = 1500, rate = 0.5 } = {}) {
  const d = X[0]?.length ?? 0;
  const total = w.reduce((a, b) => a + b, 0) || 1;
  const bias = new Array(k).fill(0);
  const weights = Array.from({ length: k }, () => new Array(d).fill(0));
  for (let it = 0; it < iterations; it++) {
    const gb = new Array(k).fill(0);
    const gw = Array.from({ length: k }, () => new Array(d).fill(0));
    X.forEach((row, i) => {
      if (w[i] === 0) return;
      const scores = bias.map((b, c) => row.reduce((s, v, j) => s + v * weights[c][j], b));
      const top = Math.max(...scores);
      const exp = scores.map((s) => Math.exp(s - top));
      const sum = exp.reduce((a, b) => a + b, 0);
      const wi = w[i] / total;
      for (let c = 0; c < k; c++) {
        const g = wi * (exp[c] / sum - (y[i] === c ? 1 : 0));
        gb[c] += g;
        for (let j = 0; j < d; j++) gw[c][j] += g * row[j];
      }
    });
    for (let c = 0; c < k; c++) {
      bias[c] -= rate * gb[c];
      for (let j = 0; j < d; j++) weights[c][j] -= rate * (gw[c][j] + lambda * weights[c][j]);
    }
  }
  return { bias, weights };
}

/** The index of the most likely class of a softmax model. */
export function softmaxClass(model, row) {
  let best = 0;
  let bestScore = -Infinity;
  model.bias.forEach((b, c) => {
    const score = row.reduce((s, v, j) => s + v * model.weights[c][j], b);
    if (score > bestScore) [best, bestScore] = [c, score];
  });
  return best;
}

/**
 * Gradient-boosted regression trees for a weighted binary logistic loss (Newton steps, as
 * XGBoost fits them): `rounds` trees of at most `depth` levels, each leaf's value
 * -G/(H + lambda) shrunk by `rate`, a split kept only when both sides hold `minLeaf` rows
 * with weight. Splits are searched exactly over each feature's sorted values, so the same
 * rows give the same trees. A tree is a flat list of nodes: [feature, threshold, left,
 * right] (x[feature] <= threshold goes left) or [-1, value] for a leaf.
 */
export function fitBoostedTrees(X, y, w, { rounds = 100, depth = 3, rate = 0.1, lambda = 1, minLeaf = 10 } = {}) {
  const rows = X.map((_, i) => i).filter((i) => w[i] > 0);
  const meanW = rows.reduce((s, i) => s + w[i], 0) / Math.max(1, rows.length);
  const weight = (i) => w[i] / meanW;
  const positive = rows.reduce((s, i) => s + weight(i) * y[i], 0);
  const all = rows.reduce((s, i) => s + weight(i), 0);
  const base = Math.log(Math.max(positive, 1e-6) / Math.max(all - positive, 1e-6));
  const F = new Array(X.length).fill(base);
  const d = X[0]?.length ?? 0;
  const sorted = Array.from({ length: d }, (_, j) => [...rows].sort((a, b) => X[a][j] - X[b][j] || a - b));
  const trees = [];
  for (let m = 0; m < rounds; m++) {
    const g = new Array(X.length).fill(0);
    const h = new Array(X.length).fill(0);
    for (const i of rows) {
      const p = sigmoid(F[i]);
      g[i] = weight(i) * (p - y[i]);
      h[i] = weight(i) * Math.max(p * (1 - p), 1e-6);
    }
    const nodes = [];
    const grow = (members, level) => {
      const G = members.reduce((s, i) => s + g[i], 0);
      const H = members.reduce((s, i) => s + h[i], 0);
      const index = nodes.length;
      nodes.push([-1, (-G / (H + lambda)) * rate]);
      if (level >= depth || members.length < 2 * minLeaf) return index;
      const inNode = new Set(members);
      let best = null;
      for (let j = 0; j < d; j++) {
        let GL = 0;
        let HL = 0;
        let n = 0;
        const order = sorted[j].filter((i) => inNode.has(i));
        for (let k = 0; k < order.length - 1; k++) {
          const i = order[k];
          GL += g[i];
          HL += h[i];
          n++;
          const here = X[i][j];
          const next = X[order[k + 1]][j];
          if (here === next || n < minLeaf || order.length - n < minLeaf) continue;
          const GR = G - GL;
          const HR = H - HL;
          const gain = (GL * GL) / (HL + lambda) + (GR * GR) / (HR + lambda) - (G * G) / (H + lambda);
          if (gain > 1e-9 && (best === null || gain > best.gain)) best = { gain, feature: j, threshold: (here + next) / 2 };
        }
      }
      if (best === null) return index;
      const left = members.filter((i) => X[i][best.feature] <= best.threshold);
      const right = members.filter((i) => X[i][best.feature] > best.threshold);
      const l = grow(left, level + 1);
      const r = grow(right, level + 1);
      nodes[index] = [best.feature, best.threshold, l, r];
      return index;
    };
    grow(rows, 0);
    trees.push(nodes);
    for (let i = 0; i < X.length; i++) F[i] += treeValue(nodes, X[i]);
  }
  return { base, trees };
}

/** One tree's value for a row. */
export function treeValue(nodes, row) {
  let node = nodes[0];
  while (node[0] !== -1) node = nodes[row[node[0]] <= node[1] ? node[2] : node[3]];
  return node[1];
}

/** The score of boosted trees: positive means class 1. */
export function boostedScore(model, row) {
  return model.trees.reduce((s, nodes) => s + treeValue(nodes, row), model.base);
}
