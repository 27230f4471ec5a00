import { FieldInput } from '@ark-ui/react/field';
import type { ComponentProps } from 'react';
import { cx } from 'styled-system/css';
import { input, type InputVariantProps } from 'styled-system/recipes';

// Ark's Field.Input (FieldInput, by name: see field.tsx) picks up id, aria-describedby and aria-invalid from an
// enclosing Field.Root, and works as a plain input without one.
export type InputProps = Omit<ComponentProps<typeof FieldInput>, 'size'> & InputVariantProps;

export function Input({ className, ...props }: InputProps) {
  const [variantProps, rest] = input.splitVariantProps(props);
  return <FieldInput className={cx(input(variantProps), className)} {...rest} />;
}
