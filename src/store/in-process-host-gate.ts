/**
 * The host gate of one process (the SQLite and memory stores): a lane per host (the
 * engines' Lane: slots and the gap between starts, checked together as the Redis script
 * checks them), each caller under its own limit and delay. Nothing is shared with another
 * process: several servers on one SQLite file are each polite on their own.
 */
import { abortReason } from '../core/abort-reason.js';
import { Lane, type ReleaseSlot } from '../core/lane.js';
import {
  checkHostGateRequest,
  HOST_START_MEMORY_MS,
  type HostGate,
  type HostGateRequest,
  type HostPass,
} from '../core/ports/host-gate.js';

interface HostLane {
  lane: Lane;
  /** When its starts are past remembering (performance.now()): the longest of their delays. */
  keepUntil: number;
  /** Drops the lane then, if no one holds or waits. */
  forget?: NodeJS.Timeout;
}

export class InProcessHostGate implements HostGate {
  readonly #hosts = new Map<string, HostLane>();

  async acquire(host: string, request: HostGateRequest): Promise<HostPass> {
    checkHostGateRequest(request);
    const { limit, delayMs, signal } = request;
    const entry = this.#laneOf(host);
    let release: ReleaseSlot;
    try {
      release = await entry.lane.acquire(signal, { maxConcurrent: limit, intervalMs: delayMs });
    } catch (err) {
      // The lane's reason for a plain Error is its own 'cancelled': the port gives the signal's.
      throw signal.aborted ? abortReason(signal) : err;
    }
    this.#remember(host, entry, Math.max(delayMs, HOST_START_MEMORY_MS));
    return { release: async () => release() };
  }

  #laneOf(host: string): HostLane {
    let entry = this.#hosts.get(host);
    if (entry === undefined) {
      // The lane's own rule is never used: every acquire brings its caller's.
      entry = { lane: new Lane({ maxConcurrent: 1, intervalMs: 0 }), keepUntil: 0 };
      this.#hosts.set(host, entry);
      this.#remember(host, entry, HOST_START_MEMORY_MS);
    }
    return entry;
  }

  #remember(host: string, entry: HostLane, ms: number): void {
    const now = performance.now();
    entry.keepUntil = Math.max(entry.keepUntil, now + ms);
    clearTimeout(entry.forget);
    entry.forget = setTimeout(() => {
      // Still in use: look again a memory later (its next start re-arms this anyway).
      if (entry.lane.active > 0 || entry.lane.waiting > 0) this.#remember(host, entry, HOST_START_MEMORY_MS);
      else if (this.#hosts.get(host) === entry) this.#hosts.delete(host);
    }, entry.keepUntil - now);
    entry.forget.unref();
  }
}
