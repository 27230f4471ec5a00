import { ark } from '@ark-ui/react/factory';
import type { ComponentProps } from 'react';
import { cx } from 'styled-system/css';
import { button, type ButtonVariantProps } from 'styled-system/recipes';

export type ButtonProps = ComponentProps<typeof ark.button> & ButtonVariantProps;

export function Button({ className, type = 'button', ...props }: ButtonProps) {
  const [variantProps, rest] = button.splitVariantProps(props);
  return <ark.button type={type} className={cx(button(variantProps), className)} {...rest} />;
}
