/**
 * The Dockerfile as dockerfile-ast (the parser of the Docker language server) reads it, grouped
 * into build stages: each instruction with its flags and arguments on one line.
 */
import { DockerfileParser, From, ModifiableInstruction } from 'dockerfile-ast';

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name?: string;
  from: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): { globalArgs: Instruction[]; stages: Stage[] } {
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    if (instruction instanceof From) {
      const from = instruction.getImage();
      if (!from) throw new Error(`Dockerfile line ${instruction.getRange().start.line + 1}: FROM without an image`);
      stages.push({ from, name: instruction.getBuildStage() ?? undefined, instructions: [] });
      continue;
    }
    const flags =
      instruction instanceof ModifiableInstruction
        ? instruction.getFlags().map((f) => `--${f.getName()}${f.getValue() === null ? '' : `=${f.getValue()}`}`)
        : [];
    const parsed: Instruction = {
      keyword: instruction.getKeyword(),
      args: [...flags, instruction.getArgumentsContent() ?? ''].join(' ').replace(/\s+/g, ' ').trim(),
      line: instruction.getRange().start.line + 1,
    };
    if (stages.length) stages[stages.length - 1].instructions.push(parsed);
    else if (parsed.keyword === 'ARG') globalArgs.push(parsed);
    else throw new Error(`Dockerfile line ${parsed.line}: ${parsed.keyword} before the first FROM`);
  }
  return { globalArgs, stages };
}

/** A stage's instructions including those it inherits through `FROM <stage>`. */
export function effectiveInstructions(stages: Stage[], name: string): Instruction[] {
  const stage = stages.find((s) => s.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  const parent = stages.find((s) => s.name === stage.from);
  return [...(parent ? effectiveInstructions(stages, parent.name!) : []), ...stage.instructions];
}
