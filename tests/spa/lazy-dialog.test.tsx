/**
 * lazyDialog (src/components/ui/lazy-dialog.tsx): a dialog's code loads when it is first wanted, not with the page
 * that opens it (the user list's add-user and import dialogs, BENCHMARKS.md "The user list's first load").
 */
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyDialog, usePreloadWhenIdle } from '../../src/components/ui/lazy-dialog';
import { usePreloadError } from '../../src/lib/preload-error';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function FakeDialog({ open, onOpenChange }: Props) {
  return open ? (
    <div role="dialog" aria-label="Fake">
      <button type="button" onClick={() => onOpenChange(false)}>
        Close
      </button>
    </div>
  ) : (
    <span data-testid="closed-but-mounted" />
  );
}

/** A loader whose promise the test settles. */
function controlledLoader() {
  const attempts: { resolve: (c: typeof FakeDialog) => void; reject: (e: Error) => void }[] = [];
  const load = vi.fn(() => new Promise<typeof FakeDialog>((resolve, reject) => attempts.push({ resolve, reject })));
  return { load, attempts };
}

function Page({ Dialog, preload }: { Dialog: React.ComponentType<Props>; preload: () => void }) {
  const [open, setOpen] = useState(false);
  const chunkFailed = usePreloadError();
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} onFocus={preload} aria-expanded={open}>
        Open
      </button>
      {chunkFailed ? <p role="alert">reload offered</p> : null}
      <Dialog open={open} onOpenChange={setOpen} />
    </>
  );
}

describe('lazyDialog', () => {
  it('loads nothing and renders nothing until opened; then shows the loaded dialog, and keeps it mounted once closed', async () => {
    const { load, attempts } = controlledLoader();
    const dialog = lazyDialog<Props>(load);
    render(<Page {...dialog} />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByTestId('closed-but-mounted')).toBeNull();

    act(() => screen.getByRole('button', { name: 'Open' }).click());
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull(); // its code is on the way
    await act(async () => attempts[0]?.resolve(FakeDialog));
    expect(await screen.findByRole('dialog', { name: 'Fake' })).toBeInTheDocument();

    act(() => screen.getByRole('button', { name: 'Close' }).click());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('closed-but-mounted')).toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'Open' }).click());
    expect(screen.getByRole('dialog', { name: 'Fake' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('preload (the opener focused) loads the code once, so opening shows the dialog at once', async () => {
    const { load, attempts } = controlledLoader();
    const dialog = lazyDialog<Props>(load);
    render(<Page {...dialog} />);
    act(() => screen.getByRole('button', { name: 'Open' }).focus());
    act(() => dialog.preload());
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => attempts[0]?.resolve(FakeDialog));
    act(() => screen.getByRole('button', { name: 'Open' }).click());
    expect(await screen.findByRole('dialog', { name: 'Fake' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a preload that failed (network) is asked for again by the next one', async () => {
    const { load, attempts } = controlledLoader();
    const dialog = lazyDialog<Props>(load);
    dialog.preload();
    await act(async () => attempts[0]?.reject(new Error('chunk failed')));
    dialog.preload();
    expect(load).toHaveBeenCalledTimes(2);
    await act(async () => attempts[1]?.resolve(FakeDialog));
    render(<Page {...dialog} />);
    act(() => screen.getByRole('button', { name: 'Open' }).click());
    expect(await screen.findByRole('dialog', { name: 'Fake' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('opening while the code cannot be loaded: the dialog closes again, the reload banner is offered, and the next open loads it', async () => {
    const { load, attempts } = controlledLoader();
    const dialog = lazyDialog<Props>(load);
    render(<Page {...dialog} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    act(() => opener.click());
    expect(opener).toHaveAttribute('aria-expanded', 'true');
    await act(async () => attempts[0]?.reject(new TypeError('Failed to fetch dynamically imported module')));
    expect(opener).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('alert')).toHaveTextContent('reload offered');
    expect(screen.queryByRole('dialog')).toBeNull();

    act(() => opener.click());
    expect(load).toHaveBeenCalledTimes(2);
    await act(async () => attempts[1]?.resolve(FakeDialog));
    expect(await screen.findByRole('dialog', { name: 'Fake' })).toBeInTheDocument();
  });

  it('usePreloadWhenIdle runs each preload once the browser is idle', async () => {
    const preload = vi.fn();
    function Idle() {
      usePreloadWhenIdle(preload);
      return null;
    }
    vi.useFakeTimers();
    try {
      render(<Idle />);
      expect(preload).not.toHaveBeenCalled();
      await act(async () => vi.advanceTimersByTime(2500));
      expect(preload).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
