/**
 * A small Dockerfile reader: instructions (continuation lines joined, comments dropped),
 * grouped into build stages.
 */
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
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    while (/\\\s*$/.test(line) && i + 1 < lines.length) {
      line = line.replace(/\\\s*$/, ' ');
      i++;
      if (/^\s*#/.test(lines[i])) continue; // comment lines inside a continuation are dropped
      line += lines[i];
    }
    const m = /^\s*(\w+)\s+(.*)$/s.exec(line);
    if (!m) throw new Error(`Dockerfile line ${start + 1}: cannot parse "${line}"`);
    instructions.push({ keyword: m[1].toUpperCase(), args: m[2].replace(/\s+/g, ' ').trim(), line: start + 1 });
  }
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!m) throw new Error(`Dockerfile line ${instruction.line}: cannot parse FROM ${instruction.args}`);
      stages.push({ from: m[1], name: m[2], instructions: [] });
    } else if (stages.length) {
      stages[stages.length - 1].instructions.push(instruction);
    } else if (instruction.keyword === 'ARG') {
      globalArgs.push(instruction);
    } else {
      throw new Error(`Dockerfile line ${instruction.line}: ${instruction.keyword} before the first FROM`);
    }
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
