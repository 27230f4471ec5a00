import { Avatar as ArkAvatar } from '@ark-ui/react/avatar';
import type { ComponentProps } from 'react';
import { avatar } from 'styled-system/recipes';
import { UserIcon } from './icons';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(avatar);

const Root = withProvider(ArkAvatar.Root, 'root');
const Image = withContext(ArkAvatar.Image, 'image');
const Fallback = withContext(ArkAvatar.Fallback, 'fallback');

export interface UserAvatarProps extends Omit<ComponentProps<typeof Root>, 'children'> {
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

/** Avatar image with the person's initials (or an icon) as fallback. */
export function UserAvatar({ name, src, ...props }: UserAvatarProps) {
  const letters = initials(name);
  return (
    <Root {...props}>
      <Fallback>{letters || <UserIcon width={18} height={18} />}</Fallback>
      {src ? <Image src={src} alt={name ?? ''} /> : null}
    </Root>
  );
}
