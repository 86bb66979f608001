import type { DocumentBlock, DocumentFragment, DocumentInline, DocumentText, JSONDocument } from './document.types';

const SAMPLE_LENGTH = 16;

/**
 * Gives every block, inline and fragment a `key` derived from its parent's key, its position,
 * its type and the start of its text. Converting the same markdown twice yields identical JSON,
 * and a block keeps its key while nothing before it changes. Hashing is numeric (FNV-1a mixing)
 * because pages have thousands of code lines and keys are on the conversion's hot path.
 */
export function assignKeys(doc: JSONDocument): void {
  const used = new Set<number>();
  const root = hashString(FNV_OFFSET, 'document');
  for (let i = 0; i < doc.nodes.length; i++) keyBlock(doc.nodes[i], root, i, used);
}

function keyBlock(node: DocumentBlock, parent: number, index: number, used: Set<number>): void {
  let h = mixNumber(parent, index);
  h = mixNumber(h, typeHash(node.type));
  const first = node.nodes?.[0];
  if (first?.object === 'text' && first.leaves.length > 0) h = hashString(h, first.leaves[0].text, SAMPLE_LENGTH);
  const key = claim(h, used);
  node.key = encodeKey(key);
  const nodes = node.nodes;
  if (nodes) for (let i = 0; i < nodes.length; i++) keyChild(nodes[i], key, i, used);
  const fragments = node.fragments;
  if (fragments) for (let i = 0; i < fragments.length; i++) keyFragment(fragments[i], key, i, used);
}

function keyChild(node: DocumentBlock | DocumentInline | DocumentText, parent: number, index: number, used: Set<number>): void {
  if (node.object === 'block') {
    keyBlock(node, parent, index, used);
    return;
  }
  if (node.object !== 'inline') return;
  const key = claim(mixNumber(mixNumber(parent, index), typeHash(node.type)), used);
  node.key = encodeKey(key);
  const nodes = node.nodes;
  if (nodes) for (let i = 0; i < nodes.length; i++) keyChild(nodes[i], key, i, used);
  const fragments = node.fragments;
  if (fragments) for (let i = 0; i < fragments.length; i++) keyFragment(fragments[i], key, i, used);
}

function keyFragment(fragment: DocumentFragment, parent: number, index: number, used: Set<number>): void {
  const key = claim(hashString(mixNumber(parent, -1 - index), fragment.fragment), used);
  fragment.key = encodeKey(key);
  for (let i = 0; i < fragment.nodes.length; i++) keyBlock(fragment.nodes[i], key, i, used);
}

/**
 * The hash itself, or the next free value after it: keys are unique within a document.
 * Kept to 30 bits so the values are V8 small integers (no boxing in the Set).
 */
function claim(hash: number, used: Set<number>): number {
  let h = hash & 0x3fffffff;
  while (used.has(h)) h = mixNumber(h, 0x9e3779b9) & 0x3fffffff;
  used.add(h);
  return h;
}

const KEY_DIGITS = Array.from('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', (ch) => ch.charCodeAt(0));

/** Six base-62 digits: one-to-one for 30-bit values, and much cheaper than `toString(36)`. */
function encodeKey(value: number): string {
  let n = value;
  const d5 = n % 62;
  n = (n - d5) / 62;
  const d4 = n % 62;
  n = (n - d4) / 62;
  const d3 = n % 62;
  n = (n - d3) / 62;
  const d2 = n % 62;
  n = (n - d2) / 62;
  const d1 = n % 62;
  n = (n - d1) / 62;
  return String.fromCharCode(KEY_DIGITS[n], KEY_DIGITS[d1], KEY_DIGITS[d2], KEY_DIGITS[d3], KEY_DIGITS[d4], KEY_DIGITS[d5]);
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const typeHashes = new Map<string, number>();

function typeHash(type: string): number {
  let h = typeHashes.get(type);
  if (h === undefined) {
    h = hashString(FNV_OFFSET, type);
    typeHashes.set(type, h);
  }
  return h;
}

/** Folds a 32-bit value into the hash (murmur3-style multiply/rotate, then an FNV step). */
function mixNumber(h: number, value: number): number {
  let k = Math.imul(value, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  return Math.imul(h ^ k, FNV_PRIME) >>> 0;
}

function hashString(h: number, text: string, limit = text.length): number {
  let x = h;
  const end = Math.min(limit, text.length);
  for (let i = 0; i < end; i++) x = Math.imul(x ^ text.charCodeAt(i), FNV_PRIME);
  return x >>> 0;
}
