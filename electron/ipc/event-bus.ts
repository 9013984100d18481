import { events, type EventPayload } from '../../shared/ipc/contract.js';
import type { EventName } from '../../shared/ipc/channels.js';

/**
 * Main → renderer events. Core services emit; each transport (Electron window, browser host
 * socket) subscribes and forwards. Payloads are validated before they leave, like responses.
 */
export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export class EventBus {
  private readonly listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = events[event].parse(payload) as EventPayload<E>;
    for (const listener of this.listeners) listener(event, checked);
  }
}
