import type { ReactNode } from 'react';
import * as Field from './field';
import type { InputProps } from './input';

export interface TextFieldProps extends Omit<InputProps, 'children'> {
  label: ReactNode;
  helperText?: ReactNode;
  errorText?: ReactNode;
  invalid?: boolean;
}

/** Label + input + helper text + error text, wired for screen readers by Ark's Field. */
export function TextField({ label, helperText, errorText, invalid, required, disabled, readOnly, ...inputProps }: TextFieldProps) {
  return (
    <Field.Root invalid={invalid ?? Boolean(errorText)} required={required} disabled={disabled} readOnly={readOnly}>
      <Field.Label>
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <Field.Input {...inputProps} />
      {helperText ? <Field.HelperText>{helperText}</Field.HelperText> : null}
      {errorText ? <Field.ErrorText>{errorText}</Field.ErrorText> : null}
    </Field.Root>
  );
}
