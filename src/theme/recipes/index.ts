// One recipe per file; slot recipes style the parts of one Ark UI component (src/components/ui/style-context.tsx).
import { button } from './button';
import { input } from './input';
import { avatar } from './avatar';
import { datePicker } from './date-picker';
import { dialog } from './dialog';
import { field } from './field';
import { menu } from './menu';
import { pagination } from './pagination';
import { pinInput } from './pin-input';
import { select } from './select';
import { switchRecipe } from './switch';
import { table } from './table';
import { tabs } from './tabs';
import { toast } from './toast';

export const recipes = { button, input };

export const slotRecipes = {
  avatar,
  datePicker,
  dialog,
  field,
  menu,
  pagination,
  pinInput,
  select,
  switchRecipe,
  table,
  tabs,
  toast,
};
