import { describe, expect, it } from 'vitest';
import { listenToStorage, type SessionActor } from '../../src/api/session-bridge';

function recordingSession() {
  const sent: unknown[] = [];
  return { sent, session: { send: (event: unknown) => void sent.push(event) } as unknown as SessionActor };
}

describe('listenToStorage (cross-tab sign-in and sign-out)', () => {
  it('forwards localStorage changes of other tabs to the session and stops after unsubscribe', () => {
    const { sent, session } = recordingSession();
    const stop = listenToStorage(session);
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: null, storageArea: window.localStorage }));
    window.dispatchEvent(new StorageEvent('storage', { key: null, newValue: null, storageArea: window.localStorage }));
    stop();
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: null, storageArea: window.localStorage }));
    expect(sent).toEqual([
      { type: 'STORAGE_CHANGED', key: 'token', newValue: null },
      { type: 'STORAGE_CHANGED', key: null, newValue: null },
    ]);
  });

  it('ignores sessionStorage changes', () => {
    const { sent, session } = recordingSession();
    const stop = listenToStorage(session);
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: null, storageArea: window.sessionStorage }));
    stop();
    expect(sent).toEqual([]);
  });
});
