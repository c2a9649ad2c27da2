-- Shared prompt blocks composed in front of an agent's content (production 0183_prompt_blocks.sql).
ALTER TABLE directory ADD COLUMN includes TEXT;
