import { createElement } from 'react';
import { PromptCommands, type PromptCommandsProps } from './PromptCommands.js';
import { ResourcePicker, type ResourcePickerProps } from './ResourcePicker.js';

/**
 * The composer's MCP parts in one lazily loaded component (one chunk, fetched once): the prompts'
 * slash commands above the field, or the resource picker beside Attach.
 */
export default function ComposerMcp(
  props: ({ readonly part: 'prompts' } & PromptCommandsProps) | ({ readonly part: 'resources' } & ResourcePickerProps),
) {
  return props.part === 'prompts' ? createElement(PromptCommands, props) : createElement(ResourcePicker, props);
}
