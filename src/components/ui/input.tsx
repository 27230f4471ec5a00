import { FieldInput, useFieldContext } from '@ark-ui/react/field';
import type { ComponentProps } from 'react';
import { cx } from 'styled-system/css';
import { input, type InputVariantProps } from 'styled-system/recipes';

// Ark's Field.Input (FieldInput, by name: see field.tsx) picks up id, aria-describedby and aria-invalid from an
// enclosing Field.Root, and works as a plain input without one.
export type InputProps = Omit<ComponentProps<typeof FieldInput>, 'size'> & InputVariantProps;

/**
 * The ids that describe a field's input: the caller's own (a password checklist), the helper text, and the error
 * text while the field is invalid. Ark names the error only in `aria-errormessage`, which several screen readers do
 * not read; `aria-describedby` makes them read it.
 */
export function describedByIds(own: string | undefined, helper: string | undefined, error: string | undefined): string | undefined {
  const ids = [own, helper, error].flatMap((value) => (value ? value.split(/\s+/) : [])).filter((id) => id !== '');
  return ids.length > 0 ? [...new Set(ids)].join(' ') : undefined;
}

export function Input({ className, ...props }: InputProps) {
  const [variantProps, rest] = input.splitVariantProps(props);
  const field = useFieldContext() as ReturnType<typeof useFieldContext> | undefined;
  const control = field?.getInputProps();
  const describedBy = field ? describedByIds(rest['aria-describedby'], field.ariaDescribedby, control?.['aria-errormessage']) : rest['aria-describedby'];
  return <FieldInput className={cx(input(variantProps), className)} {...rest} aria-describedby={describedBy} />;
}
