PRAGMA defer_foreign_keys=TRUE;
CREATE TABLE directory (
  key        TEXT PRIMARY KEY,
  type       TEXT NOT NULL CHECK (type IN ('fn','http','agent','flow')),
  target     TEXT,
  auth       TEXT,
  content    TEXT,
  updated_at TEXT NOT NULL
, category TEXT, allowed_categories TEXT, seq INTEGER, enabled INTEGER DEFAULT 1,
  planner_visible INTEGER DEFAULT 1, planner_rank INTEGER DEFAULT 100,
  input_schema TEXT, examples TEXT, sensitive INTEGER DEFAULT 0, runner TEXT,
  includes TEXT, created_at TEXT);
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('NOW','fn','now',NULL,'# Return the current time from the build clock in Pacific time (America/Los_Angeles).
# WHEN_TO_USE: any object or model that needs the current date or time.
# ARGS: none
# EX: [NOW][/NOW]
# OUTPUT: { now, today, time, zone, iso } — Pacific-offset ISO; today is the Pacific calendar date.','2026-02-19T02:16:07.507Z','time',NULL,NULL,1,1,100,NULL,NULL,0,NULL,NULL,'2026-02-19T02:16:07.507Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('GROK_MODELS','http','GET https://api.x.ai/v1/models','bearer:GROK_API_KEY','# WHAT: List every model on the xAI API. No args
# WHEN_TO_USE: you need to grok models
# ARGS: see content
# EX: [GROK_MODELS][/GROK_MODELS]
# List every model on the xAI API. No args.','2026-07-15T15:41:24.807Z','grok',NULL,NULL,1,1,100,NULL,NULL,0,NULL,NULL,'2026-07-15T15:41:24.807Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('PROMPT_LAB_AGENT','agent','grok-4.3','bearer:GROK_API_KEY','You are a friendly peptide concierge (LAB TEST v1). One warm sentence,
then end with [REPLY]your text[/REPLY].','2026-02-04T15:01:57.855Z','grok',NULL,NULL,1,1,100,NULL,NULL,0,NULL,NULL,'2026-02-04T15:01:57.855Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('BLOCK_VOICE','agent','grok-4.3',NULL,'Speak plainly and warmly. Never invent facts.','2026-04-14T19:48:49.002Z','blocks',NULL,NULL,1,0,100,NULL,NULL,0,NULL,NULL,'2026-04-14T19:48:49.002Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('BLOCK_IMESSAGE','agent','grok-4.3',NULL,'Messages are read on a phone: keep each under 300 characters.','2026-06-15T08:46:51.234Z','blocks',NULL,NULL,1,0,100,NULL,NULL,0,NULL,NULL,'2026-06-15T08:46:51.234Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('BLOCK_EMOJI','agent','grok-4.3',NULL,'Use at most one emoji per message.','2026-05-04T10:01:01.026Z','blocks',NULL,NULL,1,0,100,NULL,NULL,0,NULL,NULL,'2026-05-04T10:01:01.026Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('BLOCK_ROUTING','agent','grok-4.3',NULL,'If a capability fits, call it as [KEY]args[/KEY].','2026-06-18T00:56:24.702Z','blocks',NULL,NULL,1,0,100,NULL,NULL,0,NULL,NULL,'2026-06-18T00:56:24.702Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('BLOCK_ARA','agent','grok-4.3',NULL,'Ara is the assistant''s name.','2026-02-14T23:01:33.227Z','blocks',NULL,NULL,1,0,100,NULL,NULL,0,NULL,NULL,'2026-02-14T23:01:33.227Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('ROUTER','agent','grok-4.3','bearer:GROK_API_KEY','# WHAT: Route one inbound message to a reply.
# WHEN_TO_USE: every inbound turn.
# ARGS: $1=message text
# EX: [ROUTER]hi there[/ROUTER]
Read the message and answer. End with [REPLY]your text[/REPLY].','2026-07-15T15:35:14.353Z','router',NULL,NULL,1,1,100,NULL,NULL,0,NULL,'BLOCK_VOICE,BLOCK_IMESSAGE,BLOCK_EMOJI,BLOCK_ROUTING,BLOCK_ARA','2026-07-15T15:35:14.353Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('LAST_REPLY_OF','fn','last_reply_of',NULL,'# WHAT: The text of the last [REPLY]...[/REPLY] block in $1.
# WHEN_TO_USE: extracting the reply from agent output.
# ARGS: $1+=agent output text
# EX: [LAST_REPLY_OF]a [REPLY]x[/REPLY][/LAST_REPLY_OF]
# OUTPUT: the reply text
["$1+"]','2026-02-22T07:48:29.975Z','messaging',NULL,NULL,1,1,100,NULL,NULL,0,NULL,NULL,'2026-02-22T07:48:29.975Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('SEND_BY_CHANNEL','http','POST https://api.blooio.example/v1/send','bearer:BLOOIO_API_KEY','# WHAT: Send a text through a channel.
# WHEN_TO_USE: delivering a reply.
# ARGS: $1=channel | $2=recipient | $3+=text
# EX: [SEND_BY_CHANNEL]blooio|+15550100|hello[/SEND_BY_CHANNEL]
# OUTPUT: send result JSON
{"channel":"$1","to":"$2","text":"$3+"}','2026-03-01T13:53:58.569Z','messaging',NULL,NULL,1,1,100,NULL,NULL,0,NULL,NULL,'2026-03-01T13:53:58.569Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('BLOOIO_FINISH','flow','',NULL,'# Phase C of the inbound turn: given the full agent output text in $1, extract the
#   LAST [REPLY], send via blooio to $2, return the send result.
# $1=agent output text. $2=recipient phone.
LAST_REPLY_OF: $1
> SEND_BY_CHANNEL: blooio|$2|$PREV','2026-06-04T05:40:46.880Z','messaging',NULL,NULL,1,1,100,NULL,NULL,0,NULL,NULL,'2026-06-04T05:40:46.880Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('DIR_PATCH','http','PATCH https://miscsubjects.com/api/directory/$1','bearer:TERMINAL_KEY','# WHAT: Edit another directory row.
# WHEN_TO_USE: changing a row''s fields.
# ARGS: key | json_body
# EX: [DIR_PATCH]ROUTER|{"content":"new prompt text"}[/DIR_PATCH]
$2+','2026-03-04T23:21:57.738Z','tools',NULL,NULL,1,1,100,NULL,NULL,0,NULL,NULL,'2026-03-04T23:21:57.738Z');
INSERT INTO directory (key,type,target,auth,content,updated_at,category,allowed_categories,seq,enabled,planner_visible,planner_rank,input_schema,examples,sensitive,runner,includes,created_at) VALUES('ZZ_TEST_TEMPERATURE','http','GET https://api.open-meteo.com/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m','','# WHAT: Current temperature in Celsius for one latitude and longitude, from the Open-Meteo public API.
# WHEN_TO_USE: a capability needs the live temperature at a coordinate.
# ARGS: $1=latitude | $2=longitude
# EX: [ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]
# OUTPUT: JSON with current.temperature_2m','2026-06-17T13:32:53.932Z','tools',NULL,NULL,1,1,100,NULL,'["37.77|-122.42"]',0,NULL,NULL,'2026-06-17T13:32:53.932Z');
