import { useState, type ComponentProps } from 'react';
import { cx } from 'styled-system/css';
import { avatar, type AvatarVariantProps } from 'styled-system/recipes';
import { UserIcon } from './icons-more';

export interface UserAvatarProps extends Omit<ComponentProps<'div'>, 'children'>, AvatarVariantProps {
  name?: string | undefined;
  src?: string | null | undefined;
}

function initials(name: string | undefined): string {
  if (!name) return '';
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0])
    .join('');
}

/**
 * Avatar image with the person's initials (or an icon) as fallback: the fallback shows until the image has loaded,
 * and stays when it fails. The same parts, attributes and look as Ark UI's Avatar (data-scope/data-part, the image
 * `hidden` until loaded, `alt` = the name), without its state machine: the avatar is in the admin shell's header on
 * every admin page, and zag's machine runtime is not needed for an image that loads or not (issue 15, first load).
 */
export function UserAvatar({ name, src, size, className, ...props }: UserAvatarProps) {
  const letters = initials(name);
  const classes = avatar({ size });
  // which src has loaded: a new src (a preview, another person) shows the fallback again until it loads
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  const loaded = Boolean(src) && loadedSrc === src;
  return (
    <div {...props} className={cx(classes.root, className)} data-scope="avatar" data-part="root">
      <span className={classes.fallback} data-scope="avatar" data-part="fallback" data-state={loaded ? 'hidden' : 'visible'} hidden={loaded}>
        {letters || <UserIcon width={18} height={18} />}
      </span>
      {src ? (
        <img
          key={src}
          className={classes.image}
          data-scope="avatar"
          data-part="image"
          data-state={loaded ? 'visible' : 'hidden'}
          hidden={!loaded}
          src={src}
          alt={name ?? ''}
          onLoad={() => setLoadedSrc(src)}
          onError={() => setLoadedSrc(null)}
          // an image already in the cache may be complete before React listens
          ref={(img) => {
            if (img?.complete && img.naturalWidth > 0 && loadedSrc !== src) setLoadedSrc(src);
          }}
        />
      ) : null}
    </div>
  );
}
