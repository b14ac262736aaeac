/** The LLM section's first page: vendor credentials, limits and monthly budget, default fallbacks. */
import { Credentials } from './llm-credentials';
import { LlmFrame, useLlmProject } from './llm-frame';
import { Fallbacks, Limits } from './llm-limits';

export function LlmSettings() {
  const project = useLlmProject();
  return (
    <LlmFrame project={project} title="Settings">
      <Credentials project={project} />
      <Limits project={project} />
      <Fallbacks project={project} />
    </LlmFrame>
  );
}
