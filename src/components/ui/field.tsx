import { Field as ArkField } from '@ark-ui/react/field';
import type { ReactNode } from 'react';
import { field } from 'styled-system/recipes';
import { Input, type InputProps } from './input';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(field);

export const Root = withProvider(ArkField.Root, 'root');
export const Label = withContext(ArkField.Label, 'label');
export const RequiredIndicator = withContext(ArkField.RequiredIndicator, 'requiredIndicator');
export const HelperText = withContext(ArkField.HelperText, 'helperText');
export const ErrorText = withContext(ArkField.ErrorText, 'errorText');
export { Input };

export interface TextFieldProps extends Omit<InputProps, 'children'> {
  label: ReactNode;
  helperText?: ReactNode;
  errorText?: ReactNode;
  invalid?: boolean;
}

/** Label + input + helper text + error text, wired for screen readers by Ark's Field. */
export function TextField({ label, helperText, errorText, invalid, required, disabled, readOnly, ...inputProps }: TextFieldProps) {
  return (
    <Root invalid={invalid ?? Boolean(errorText)} required={required} disabled={disabled} readOnly={readOnly}>
      <Label>
        {label}
        <RequiredIndicator />
      </Label>
      <Input {...inputProps} />
      {helperText ? <HelperText>{helperText}</HelperText> : null}
      {errorText ? <ErrorText>{errorText}</ErrorText> : null}
    </Root>
  );
}
