import type { ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { TextField, type TextFieldProps } from '../../../components/ui/text-field';
import { useFieldError } from '../../../lib/field-errors';

export interface FormFieldProps extends Omit<TextFieldProps, 'label' | 'errorText'> {
  label: string;
  error: FieldError | undefined;
  helperText?: ReactNode;
  /** What a format error ('invalid') says instead of "{field} is invalid": the rule and an example (issue 29). */
  invalidText?: string;
}

/** Text field whose error is a field error code (zod message or server 422 code). */
export function FormField({ label, error, invalidText, ...props }: FormFieldProps) {
  const fieldError = useFieldError();
  const message = invalidText && error?.message === 'invalid' ? invalidText : fieldError(error, label);
  return <TextField label={label} errorText={message} {...props} />;
}
