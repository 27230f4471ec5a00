import type { ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { TextField, type TextFieldProps } from '../../../components/ui/text-field';
import { useFieldError } from '../../../lib/field-errors';

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
