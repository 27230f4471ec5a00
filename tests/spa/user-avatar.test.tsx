/**
 * UserAvatar without Ark's state machine (issue 15: off the admin shell's first load): the initials show until the
 * image has loaded, the image (alt = the name) is hidden until then, a failed image keeps the initials, and a new
 * src shows the initials again until it loads.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UserAvatar } from '../../src/components/ui/user-avatar';

/** The avatar's image (hidden until loaded: no accessible name yet, so found by tag), its alt checked. */
function imageOf(container: HTMLElement): HTMLImageElement {
  const image = container.querySelector('img');
  if (!image) throw new Error('no image');
  expect(image.alt).toBe('Ada Lovelace');
  return image;
}

describe('UserAvatar', () => {
  it('without a picture: the initials (two at most), no image', () => {
    const { container } = render(<UserAvatar name="Ada King Lovelace" size="sm" />);
    expect(screen.getByText('AK')).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[data-part="root"]')?.className).toContain('avatar__root');
  });

  it('without a name or picture: the person icon', () => {
    const { container } = render(<UserAvatar />);
    expect(container.querySelector('[data-part="fallback"] svg')).not.toBeNull();
  });

  it('with a picture: initials until it loads, then the image named by the person; a new picture starts over', () => {
    const { container, rerender } = render(<UserAvatar name="Ada Lovelace" src="/api/avatars/a.png" />);
    const fallback = container.querySelector<HTMLElement>('[data-part="fallback"]');
    const image = imageOf(container);
    expect(image.hidden).toBe(true);
    expect(fallback?.hidden).toBe(false);
    fireEvent.load(image);
    expect(screen.getByRole('img', { name: 'Ada Lovelace' }).hidden).toBe(false);
    expect(container.querySelector<HTMLElement>('[data-part="fallback"]')?.hidden).toBe(true);
    rerender(<UserAvatar name="Ada Lovelace" src="/api/avatars/b.png" />);
    expect(imageOf(container).hidden).toBe(true);
    expect(container.querySelector<HTMLElement>('[data-part="fallback"]')?.hidden).toBe(false);
  });

  it('a picture that fails to load keeps the initials', () => {
    const { container } = render(<UserAvatar name="Ada Lovelace" src="/api/avatars/missing.png" />);
    fireEvent.error(imageOf(container));
    expect(container.querySelector<HTMLElement>('[data-part="fallback"]')?.hidden).toBe(false);
    expect(screen.getByText('AL')).toBeTruthy();
    expect(imageOf(container).hidden).toBe(true);
  });
});
