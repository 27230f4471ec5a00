// Ark's parts by name, not its `Field` namespace: that object holds every part (textarea with zag's auto-resize, select,
// item, root provider), so importing it bundles them all into the forms' first load.
import { FieldErrorText, FieldHelperText, FieldLabel, FieldRequiredIndicator, FieldRoot } from '@ark-ui/react/field';
import { field } from 'styled-system/recipes';
import { Input } from './input';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(field);

export const Root = withProvider(FieldRoot, 'root');
export const Label = withContext(FieldLabel, 'label');
export const RequiredIndicator = withContext(FieldRequiredIndicator, 'requiredIndicator');
export const HelperText = withContext(FieldHelperText, 'helperText');
export const ErrorText = withContext(FieldErrorText, 'errorText');
// The field's input is the kit's Input (Ark's Field.Input underneath): Field.Input.
export { Input };
