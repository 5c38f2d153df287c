import MenuItem from '@mui/material/MenuItem';
import type { FieldMeta } from '@intelnotes/server/contracts';
import { choiceText } from './field-format';

/**
 * The options of a choice field's select, in the form and in a table cell alike: its choices by
 * their labels, and "Not set" only when the field has no default (a choice with a default always
 * holds a value). An array rather than a component, since MUI's Select reads its options from its
 * direct children.
 */
export function choiceMenuItems(field: FieldMeta) {
  return [
    ...(field.default === null
      ? [
          <MenuItem key="" value="">
            <em>Not set</em>
          </MenuItem>,
        ]
      : []),
    ...(field.choices ?? []).map((choice) => (
      <MenuItem key={choice} value={choice}>
        {choiceText(field, choice)}
      </MenuItem>
    )),
  ];
}
