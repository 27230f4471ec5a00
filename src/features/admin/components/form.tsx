import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { TextField, type TextFieldProps } from '../../../components/ui/field';
import { fieldErrorMessage } from '../../../lib/field-errors';

/** Translates a zod/server field error code into the field's message. */
export function useFieldError() {
  const { i18n } = useLingui();
  return (error: FieldError | undefined, field: string): string | undefined => fieldErrorMessage(i18n, error?.message, field);
}

export interface FormFieldProps extends Omit<TextFieldProps, 'label' | 'errorText'> {
  label: string;
  error: FieldError | undefined;
  helperText?: ReactNode;
}

/** Text field whose error is a field error code (zod message or server 422 code). */
export function FormField({ label, error, ...props }: FormFieldProps) {
  const message = useFieldError()(error, label);
  return <TextField label={label} errorText={message} {...props} />;
}
