// Gradient-boosted regression trees for a weighted binary logistic loss, for the stage
// selector's training (bench/train-selector.mjs): small dense problems (a thousand rows,
// fifty features), fitted deterministically, no randomness anywhere. Rows are arrays of
// numbers.

const sigmoid = (z) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

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
          if (gain > 1e-9 && (best === null || gain > best.gain))
            best = { gain, feature: j, threshold: (here + next) / 2 };
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
